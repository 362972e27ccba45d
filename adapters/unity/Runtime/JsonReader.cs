using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace GameCampaignSdk
{
    /// <summary>
    /// The strict JSON reader behind <see cref="Json.Parse"/>: exactly the grammar of RFC 8259 (what JavaScript's
    /// <c>JSON.parse</c> accepts), so the C# side never reads text the JavaScript side would refuse. It rejects
    /// what lenient readers let through: escapes other than <c>\" \\ \/ \b \f \n \r \t \uXXXX</c>, raw control
    /// characters in strings, <c>+1</c>, <c>.5</c>, <c>1.</c>, <c>01</c>, trailing commas, whitespace other than
    /// space, tab, line feed and carriage return, and anything after the value.
    /// Nesting is limited to <see cref="Json.MaxDepth"/> arrays and objects: the reader recurses once per level,
    /// and a stack overflow cannot be caught (under IL2CPP it ends the player), so deeper text is a
    /// <see cref="FormatException"/> instead.
    /// </summary>
    internal sealed class JsonReader
    {
        private readonly string text;
        private int at;
        private int depth;

        private JsonReader(string text) { this.text = text; }

        /// <summary>The value <paramref name="text"/> holds. Throws <see cref="FormatException"/> for anything RFC 8259 does not allow.</summary>
        internal static object Read(string text)
        {
            var reader = new JsonReader(text);
            var value = reader.Value();
            reader.SkipWhitespace();
            if (reader.at != text.Length) throw reader.Error("unexpected text after the value");
            return value;
        }

        private object Value()
        {
            SkipWhitespace();
            if (at >= text.Length) throw Error("unexpected end");
            var c = text[at];
            if (c == '{') return Nested(true);
            if (c == '[') return Nested(false);
            if (c == '"') return ReadString();
            if (Word("true")) return true;
            if (Word("false")) return false;
            if (Word("null")) return null;
            if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber();
            throw Error("unexpected character '" + c + "'");
        }

        private object Nested(bool isObject)
        {
            if (++depth > Json.MaxDepth) throw Error("nested deeper than " + Json.MaxDepth + " arrays and objects");
            var value = isObject ? (object)ReadObject() : ReadArray();
            depth--;
            return value;
        }

        private Dictionary<string, object> ReadObject()
        {
            var result = new Dictionary<string, object>();
            at++;
            SkipWhitespace();
            if (Take('}')) return result;
            while (true)
            {
                SkipWhitespace();
                if (at >= text.Length || text[at] != '"') throw Error("expected a member name");
                var key = ReadString();
                SkipWhitespace();
                if (!Take(':')) throw Error("expected ':'");
                result[key] = Value(); // a repeated name keeps its last value, as JSON.parse does
                SkipWhitespace();
                if (Take('}')) return result;
                if (!Take(',')) throw Error("expected ',' or '}'");
            }
        }

        private List<object> ReadArray()
        {
            var result = new List<object>();
            at++;
            SkipWhitespace();
            if (Take(']')) return result;
            while (true)
            {
                result.Add(Value());
                SkipWhitespace();
                if (Take(']')) return result;
                if (!Take(',')) throw Error("expected ',' or ']'");
            }
        }

        private string ReadString()
        {
            var output = new StringBuilder();
            at++;
            while (at < text.Length)
            {
                var c = text[at++];
                if (c == '"') return output.ToString();
                if (c < ' ') { at--; throw Error("control character U+" + ((int)c).ToString("X4", CultureInfo.InvariantCulture) + " in a string (escape it)"); }
                if (c != '\\') { output.Append(c); continue; }
                if (at >= text.Length) break;
                var escape = text[at++];
                switch (escape)
                {
                    case '"': output.Append('"'); break;
                    case '\\': output.Append('\\'); break;
                    case '/': output.Append('/'); break;
                    case 'b': output.Append('\b'); break;
                    case 'f': output.Append('\f'); break;
                    case 'n': output.Append('\n'); break;
                    case 'r': output.Append('\r'); break;
                    case 't': output.Append('\t'); break;
                    case 'u': output.Append(ReadHex4()); break; // a surrogate pair is two escapes, each one UTF-16 unit
                    default: at--; throw Error("invalid escape '\\" + escape + "'");
                }
            }
            throw Error("unterminated string");
        }

        private char ReadHex4()
        {
            var code = 0;
            for (var i = 0; i < 4; i++, at++)
            {
                var digit = at < text.Length ? HexDigit(text[at]) : -1;
                if (digit < 0) throw Error("\\u needs four hex digits");
                code = code * 16 + digit;
            }
            return (char)code;
        }

        private static int HexDigit(char c)
        {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            return -1;
        }

        /// <summary><c>-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?</c>; beyond double's range it is an infinity, as in JavaScript.</summary>
        private double ReadNumber()
        {
            var start = at;
            Take('-');
            if (Take('0'))
            {
                if (IsDigit()) throw Error("a number cannot start with 0");
            }
            else if (!Digits()) throw Error("expected a digit");
            if (Take('.') && !Digits()) throw Error("expected a digit after '.'");
            if (Take('e') || Take('E'))
            {
                if (!Take('+')) Take('-');
                if (!Digits()) throw Error("expected a digit in the exponent");
            }
            var literal = text.Substring(start, at - start);
            double number;
            if (double.TryParse(literal, NumberStyles.Float, CultureInfo.InvariantCulture, out number)) return number;
            // The syntax is valid, so only the range failed (runtimes older than .NET Core 3.0 refuse 1e400).
            return literal[0] == '-' ? double.NegativeInfinity : double.PositiveInfinity;
        }

        private bool Digits()
        {
            var start = at;
            while (IsDigit()) at++;
            return at > start;
        }

        private bool IsDigit() { return at < text.Length && text[at] >= '0' && text[at] <= '9'; }

        private bool Word(string word)
        {
            if (string.CompareOrdinal(text, at, word, 0, word.Length) != 0) return false;
            at += word.Length;
            return true;
        }

        private bool Take(char c)
        {
            if (at < text.Length && text[at] == c) { at++; return true; }
            return false;
        }

        /// <summary>RFC 8259's four whitespace characters only (not char.IsWhiteSpace's Unicode spaces).</summary>
        private void SkipWhitespace()
        {
            while (at < text.Length && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) at++;
        }

        private FormatException Error(string message)
        {
            return new FormatException("JSON: " + message + " at " + at);
        }
    }
}
