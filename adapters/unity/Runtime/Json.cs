using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace GameCampaignSdk
{
    /// <summary>
    /// The small JSON reader and writer the bridge needs. Unity's JsonUtility cannot read the SDK's data
    /// (localized text and metadata are maps, fields are optional), and a package should not force
    /// Newtonsoft on a game: objects parse to <c>Dictionary&lt;string, object&gt;</c>, arrays to
    /// <c>List&lt;object&gt;</c>, numbers to <c>double</c>.
    /// </summary>
    public static class Json
    {
        /// <summary>Parses JSON text. Throws <see cref="FormatException"/> for malformed text.</summary>
        public static object Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            var reader = new Reader(text);
            var value = reader.Value();
            reader.End();
            return value;
        }

        /// <summary>Writes a value made of dictionaries, lists, strings, numbers, booleans and null.</summary>
        public static string Serialize(object value)
        {
            var output = new StringBuilder();
            Write(output, value);
            return output.ToString();
        }

        // ---- helpers of the generated classes ----

        /// <summary>The member <paramref name="key"/> of <paramref name="o"/>, or null.</summary>
        public static object Field(Dictionary<string, object> o, string key)
        {
            object value;
            return o != null && o.TryGetValue(key, out value) ? value : null;
        }

        /// <summary>A string member, or null.</summary>
        public static string Str(Dictionary<string, object> o, string key) { return Field(o, key) as string; }

        /// <summary>A value as a string, or null.</summary>
        public static string AsString(object value) { return value as string; }

        /// <summary>A number member as a whole number, or null.</summary>
        public static long? Long(Dictionary<string, object> o, string key)
        {
            var value = Field(o, key);
            return value is double ? (long?)Convert.ToInt64((double)value) : null;
        }

        /// <summary>A number member, or null.</summary>
        public static double? Num(Dictionary<string, object> o, string key)
        {
            var value = Field(o, key);
            return value is double ? (double?)(double)value : null;
        }

        /// <summary>A boolean member, or null.</summary>
        public static bool? Bool(Dictionary<string, object> o, string key)
        {
            var value = Field(o, key);
            return value is bool ? (bool?)(bool)value : null;
        }

        /// <summary>A value as an object, or null.</summary>
        public static Dictionary<string, object> Obj(object value) { return value as Dictionary<string, object>; }

        /// <summary>An object member whose values are strings (localized text), or null.</summary>
        public static Dictionary<string, string> StringMap(Dictionary<string, object> o, string key)
        {
            var map = Obj(Field(o, key));
            if (map == null) return null;
            var result = new Dictionary<string, string>();
            foreach (var entry in map) if (entry.Value is string) result[entry.Key] = (string)entry.Value;
            return result;
        }

        /// <summary>An array member read item by item, or null.</summary>
        public static List<T> Items<T>(Dictionary<string, object> o, string key, Func<object, T> read)
        {
            var items = Field(o, key) as List<object>;
            if (items == null) return null;
            var result = new List<T>(items.Count);
            foreach (var item in items) result.Add(read(item));
            return result;
        }

        /// <summary>Sets <paramref name="key"/> unless <paramref name="value"/> is null (absent).</summary>
        public static void Put(Dictionary<string, object> o, string key, object value)
        {
            if (value != null) o[key] = value;
        }

        /// <summary>A list as JSON values, or null.</summary>
        public static List<object> Write<T>(List<T> items, Func<T, object> write)
        {
            if (items == null) return null;
            var result = new List<object>(items.Count);
            foreach (var item in items) result.Add(write(item));
            return result;
        }

        /// <summary>A string map as a JSON object, or null.</summary>
        public static Dictionary<string, object> Write(Dictionary<string, string> map)
        {
            if (map == null) return null;
            var result = new Dictionary<string, object>();
            foreach (var entry in map) result[entry.Key] = entry.Value;
            return result;
        }

        private static void Write(StringBuilder output, object value)
        {
            if (value == null) output.Append("null");
            else if (value is string) Quote(output, (string)value);
            else if (value is bool) output.Append((bool)value ? "true" : "false");
            else if (value is Dictionary<string, object>) WriteObject(output, (Dictionary<string, object>)value);
            else if (value is Dictionary<string, string>) WriteObject(output, Write((Dictionary<string, string>)value));
            else if (value is System.Collections.IList) WriteArray(output, (System.Collections.IList)value);
            else if (value is double || value is float || value is decimal)
            {
                var number = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(number) || double.IsInfinity(number)) throw new ArgumentException("JSON has no NaN or Infinity");
                output.Append(number.ToString("R", CultureInfo.InvariantCulture));
            }
            else if (value is IConvertible) output.Append(Convert.ToInt64(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture));
            else throw new ArgumentException("cannot write a " + value.GetType().Name + " as JSON");
        }

        private static void WriteObject(StringBuilder output, Dictionary<string, object> o)
        {
            output.Append('{');
            var first = true;
            foreach (var entry in o)
            {
                if (!first) output.Append(',');
                first = false;
                Quote(output, entry.Key);
                output.Append(':');
                Write(output, entry.Value);
            }
            output.Append('}');
        }

        private static void WriteArray(StringBuilder output, System.Collections.IList items)
        {
            output.Append('[');
            for (var i = 0; i < items.Count; i++)
            {
                if (i > 0) output.Append(',');
                Write(output, items[i]);
            }
            output.Append(']');
        }

        private static void Quote(StringBuilder output, string text)
        {
            output.Append('"');
            foreach (var c in text)
            {
                switch (c)
                {
                    case '"': output.Append("\\\""); break;
                    case '\\': output.Append("\\\\"); break;
                    case '\n': output.Append("\\n"); break;
                    case '\r': output.Append("\\r"); break;
                    case '\t': output.Append("\\t"); break;
                    default:
                        if (c < ' ') output.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else output.Append(c);
                        break;
                }
            }
            output.Append('"');
        }

        private sealed class Reader
        {
            private readonly string text;
            private int at;

            public Reader(string text) { this.text = text; }

            public void End()
            {
                Skip();
                if (at != text.Length) throw Error("unexpected text after the value");
            }

            public object Value()
            {
                Skip();
                if (at >= text.Length) throw Error("unexpected end");
                var c = text[at];
                if (c == '{') return ReadObject();
                if (c == '[') return ReadArray();
                if (c == '"') return ReadString();
                if (Word("true")) return true;
                if (Word("false")) return false;
                if (Word("null")) return null;
                return ReadNumber();
            }

            private Dictionary<string, object> ReadObject()
            {
                var result = new Dictionary<string, object>();
                at++;
                Skip();
                if (Take('}')) return result;
                do
                {
                    Skip();
                    if (at >= text.Length || text[at] != '"') throw Error("expected a member name");
                    var key = ReadString();
                    Skip();
                    if (!Take(':')) throw Error("expected ':'");
                    result[key] = Value();
                    Skip();
                } while (Take(','));
                if (!Take('}')) throw Error("expected ',' or '}'");
                return result;
            }

            private List<object> ReadArray()
            {
                var result = new List<object>();
                at++;
                Skip();
                if (Take(']')) return result;
                do
                {
                    result.Add(Value());
                    Skip();
                } while (Take(','));
                if (!Take(']')) throw Error("expected ',' or ']'");
                return result;
            }

            private string ReadString()
            {
                var output = new StringBuilder();
                at++;
                while (at < text.Length)
                {
                    var c = text[at++];
                    if (c == '"') return output.ToString();
                    if (c != '\\') { output.Append(c); continue; }
                    if (at >= text.Length) break;
                    var escape = text[at++];
                    switch (escape)
                    {
                        case 'b': output.Append('\b'); break;
                        case 'f': output.Append('\f'); break;
                        case 'n': output.Append('\n'); break;
                        case 'r': output.Append('\r'); break;
                        case 't': output.Append('\t'); break;
                        case 'u':
                            if (at + 4 > text.Length) throw Error("bad \\u escape");
                            output.Append((char)int.Parse(text.Substring(at, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
                            at += 4;
                            break;
                        default: output.Append(escape); break;
                    }
                }
                throw Error("unterminated string");
            }

            private double ReadNumber()
            {
                var start = at;
                while (at < text.Length && "+-0123456789.eE".IndexOf(text[at]) >= 0) at++;
                double number;
                if (at == start || !double.TryParse(text.Substring(start, at - start), NumberStyles.Float, CultureInfo.InvariantCulture, out number)) throw Error("unexpected character");
                return number;
            }

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

            private void Skip()
            {
                while (at < text.Length && char.IsWhiteSpace(text[at])) at++;
            }

            private FormatException Error(string message)
            {
                return new FormatException("JSON: " + message + " at " + at);
            }
        }
    }
}
