// Outside a WebGL player only: there the JavaScript SDK runs (Native.cs).
#if !UNITY_WEBGL || UNITY_EDITOR
using System;
using System.Collections.Generic;
using System.Text.RegularExpressions;

namespace GameCampaignSdk
{
    /// <summary>The C# counterpart of a rule's predicate (core/schema/rules.ts): scripts/generate-unity-types.ts maps each one it knows.</summary>
    internal enum RuleTest
    {
        /// <summary><c>Id</c>: not empty.</summary>
        NotEmpty,
        /// <summary><c>CreatorKey</c>: <see cref="Rules.CreatorKeyPattern"/>.</summary>
        CreatorKey,
        /// <summary><c>PositiveInt</c>: a safe integer of at least 1.</summary>
        PositiveInt,
        /// <summary><c>TimerMs</c>: a whole number of ms from 1 to <see cref="Rules.MaxTimerMs"/>.</summary>
        TimerMs,
        /// <summary><c>Timestamp</c> (<c>isIsoMillis</c>): <c>YYYY-MM-DDTHH:mm:ss.sssZ</c> naming a real instant.</summary>
        Timestamp,
        /// <summary><c>Metadata</c> (<c>isRecord</c>): a JSON object.</summary>
        Record,
    }

    /// <summary>One field's rule (core/schema/rules.ts <c>Rule</c>), as generated into <see cref="RuleTables"/>.</summary>
    internal sealed class FieldRule
    {
        internal readonly string Name;
        /// <summary>The JSON type the value must have first (<c>string</c>, <c>number</c>, <c>boolean</c>), or null: the test alone decides.</summary>
        internal readonly string Type;
        internal readonly RuleTest Test;
        internal readonly string Message;
        internal readonly bool Optional;

        internal FieldRule(string name, string type, RuleTest test, string message, bool optional)
        {
            Name = name;
            Type = type;
            Test = test;
            Message = message;
            Optional = optional;
        }
    }

    /// <summary>
    /// Checks fields against generated rule tables as core/schema/rules.ts <c>broken</c> and <c>checkFields</c> do, so the
    /// C# tracker refuses what the JavaScript one refuses, in its words: the tables come from the same rules
    /// (scripts/generate-unity-types.ts), only the predicates are written twice (<see cref="RuleTest"/>).
    /// </summary>
    internal static class FieldRules
    {
        private static readonly Regex CreatorKeyPattern = new Regex(Rules.CreatorKeyPattern, RegexOptions.CultureInvariant);

        /// <summary>
        /// What is wrong with each field of <paramref name="rules"/> in <paramref name="fields"/>, paths <c>{prefix}.{name}</c>
        /// (no prefix: the name). A key present with null is checked as JSON null (only JavaScript's <c>undefined</c>, an absent
        /// key, passes an optional rule); the API's arguments never hold one (<see cref="Json.Put"/> leaves nulls out).
        /// </summary>
        internal static List<ErrorDetail> Check(FieldRule[] rules, Dictionary<string, object> fields, string prefix)
        {
            var details = new List<ErrorDetail>();
            foreach (var rule in rules)
            {
                object value;
                var present = fields.TryGetValue(rule.Name, out value);
                var message = Broken(rule, present, value);
                if (message != null) details.Add(new ErrorDetail { Path = prefix == null ? rule.Name : prefix + "." + rule.Name, Message = message });
            }
            return details;
        }

        /// <summary>core/schema/rules.ts <c>broken</c>: the message, or null when the value keeps the rule.</summary>
        private static string Broken(FieldRule rule, bool present, object value)
        {
            if (!present && rule.Optional) return null;
            if (rule.Type != null)
            {
                if (!present) return "is required";
                if (!HasType(rule.Type, value)) return "must be a " + rule.Type;
            }
            return Passes(rule.Test, present ? value : null) ? null : rule.Message;
        }

        /// <summary>JavaScript's <c>typeof</c> check: numbers must also be finite.</summary>
        private static bool HasType(string type, object value)
        {
            switch (type)
            {
                case "string": return value is string;
                case "number": return value is double && !double.IsNaN((double)value) && !double.IsInfinity((double)value);
                case "boolean": return value is bool;
                default: throw new ArgumentException("no JSON type " + type);
            }
        }

        private static bool Passes(RuleTest test, object value)
        {
            switch (test)
            {
                case RuleTest.NotEmpty: return (string)value != "";
                case RuleTest.CreatorKey: return CreatorKeyPattern.IsMatch((string)value);
                case RuleTest.PositiveInt: return WholeFrom1((double)value);
                case RuleTest.TimerMs: return WholeFrom1((double)value) && (double)value <= Rules.MaxTimerMs;
                case RuleTest.Timestamp: return DeviceClock.IsIsoMillis((string)value);
                case RuleTest.Record: return value is Dictionary<string, object>;
                default: throw new ArgumentException("no test " + test);
            }
        }

        /// <summary>core/schema/rules.ts <c>PositiveInt</c>: a safe integer of at least 1.</summary>
        private static bool WholeFrom1(double value) { return value >= 1 && value <= 9007199254740991.0 && value == Math.Floor(value); }
    }
}
#endif
