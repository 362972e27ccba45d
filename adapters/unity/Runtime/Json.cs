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
    /// <c>List&lt;object&gt;</c>, numbers to <c>double</c>. Reading is strict RFC 8259 (<see cref="JsonReader"/>).
    /// </summary>
    public static class Json
    {
        /// <summary>
        /// The deepest nesting of arrays and objects read or written: 64, far beyond any SDK message (3 to 5 levels)
        /// yet well inside a player's stack, since each level is a recursive call and a stack overflow cannot be
        /// caught (under IL2CPP it ends the player). Deeper text is a <see cref="FormatException"/>, a deeper
        /// value (or one holding itself) an <see cref="ArgumentException"/>.
        /// </summary>
        public const int MaxDepth = 64;

        /// <summary>Parses JSON text. Throws <see cref="FormatException"/> for text RFC 8259 does not allow or nested deeper than <see cref="MaxDepth"/>.</summary>
        public static object Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            return JsonReader.Read(text);
        }

        /// <summary>Writes a value made of dictionaries, lists, strings, numbers, booleans and null. Throws <see cref="ArgumentException"/> for anything else, NaN, infinities, or nesting deeper than <see cref="MaxDepth"/>.</summary>
        public static string Serialize(object value)
        {
            return Serialize(value, false);
        }

        /// <summary>
        /// Like <see cref="Serialize(object)"/>, but writes <c>null</c> in place of what it cannot write (as
        /// <c>JSON.stringify</c> does for NaN): an event must reach the game even when a stored value it carries
        /// (metadata a release before the 61-level check recorded) nests too deep.
        /// </summary>
        internal static string Serialize(object value, bool lenient)
        {
            var output = new StringBuilder();
            Write(output, value, 0, lenient);
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

        /// <summary>A number member as a whole number (rounded), or null; null too when it is beyond a long's range (1e300 from a hostile page).</summary>
        public static long? Long(Dictionary<string, object> o, string key)
        {
            var value = Field(o, key);
            if (!(value is double)) return null;
            var number = (double)value;
            return number >= -9.2e18 && number <= 9.2e18 ? (long?)Convert.ToInt64(number) : null;
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

        private static void Write(StringBuilder output, object value, int depth, bool lenient)
        {
            var number = value is double || value is float || value is decimal ? Convert.ToDouble(value, CultureInfo.InvariantCulture) : 0;
            if (value == null) output.Append("null");
            else if (value is string) Quote(output, (string)value);
            else if (value is bool) output.Append((bool)value ? "true" : "false");
            else if (lenient && depth == MaxDepth && (value is System.Collections.IDictionary || value is System.Collections.IList)) output.Append("null");
            else if (value is Dictionary<string, object>) WriteObject(output, (Dictionary<string, object>)value, depth + 1, lenient);
            else if (value is Dictionary<string, string>) WriteObject(output, Write((Dictionary<string, string>)value), depth + 1, lenient);
            else if (value is System.Collections.IList) WriteArray(output, (System.Collections.IList)value, depth + 1, lenient);
            else if (double.IsNaN(number) || double.IsInfinity(number))
            {
                if (!lenient) throw new ArgumentException("JSON has no NaN or Infinity");
                output.Append("null");
            }
            // A float as the float it is (0.1f is 0.1, not the 0.10000000149011612 its double holds): Unity's numbers are floats.
            else if (value is float) output.Append(((float)value).ToString("R", CultureInfo.InvariantCulture));
            else if (value is double || value is decimal) output.Append(number.ToString("R", CultureInfo.InvariantCulture));
            else if (value is IConvertible) output.Append(Convert.ToInt64(value, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture));
            else if (lenient) output.Append("null");
            else throw new ArgumentException("cannot write a " + value.GetType().Name + " as JSON");
        }

        private static void WriteObject(StringBuilder output, Dictionary<string, object> o, int depth, bool lenient)
        {
            CheckDepth(depth);
            output.Append('{');
            var first = true;
            foreach (var entry in o)
            {
                if (!first) output.Append(',');
                first = false;
                Quote(output, entry.Key);
                output.Append(':');
                Write(output, entry.Value, depth, lenient);
            }
            output.Append('}');
        }

        private static void WriteArray(StringBuilder output, System.Collections.IList items, int depth, bool lenient)
        {
            CheckDepth(depth);
            output.Append('[');
            for (var i = 0; i < items.Count; i++)
            {
                if (i > 0) output.Append(',');
                Write(output, items[i], depth, lenient);
            }
            output.Append(']');
        }

        /// <summary>
        /// Whether <paramref name="value"/> nests arrays and objects more than <paramref name="levels"/> deep (one holding
        /// itself does); it looks no deeper than that, so no value overflows the stack.
        /// </summary>
        internal static bool NestsDeeperThan(object value, int levels)
        {
            var children = value is string ? null : value as System.Collections.IEnumerable;
            if (children == null) return false;
            if (levels == 0) return true;
            var map = value as System.Collections.IDictionary;
            foreach (var child in map != null ? map.Values : children) if (NestsDeeperThan(child, levels - 1)) return true;
            return false;
        }

        private static void CheckDepth(int depth)
        {
            if (depth > MaxDepth) throw new ArgumentException("JSON: a value nested deeper than " + MaxDepth + " arrays and objects (or one holding itself) cannot be written");
        }

        /// <summary>A JSON string; a lone surrogate is escaped (as JSON.stringify does) so the UTF-8 marshalling keeps it.</summary>
        private static void Quote(StringBuilder output, string text)
        {
            output.Append('"');
            for (var i = 0; i < text.Length; i++)
            {
                var c = text[i];
                if (char.IsSurrogate(c))
                {
                    if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1])) output.Append(c).Append(text[++i]);
                    else output.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                    continue;
                }
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
    }
}
