#!/usr/bin/env -S npx tsx
/**
 * Writes the C# data classes of the Unity bridge from the SDK's zod schemas (scripts/unity-types.ts), through
 * zod 4's JSON Schema: one source of truth from zod to Unity. Run `npx tsx scripts/generate-unity-types.ts`
 * after changing a schema; test/adapters/unity/generated.test.ts fails while the checked-in C# is stale.
 *
 * Each class gets public fields (PascalCase, the JSON name in a comment), `FromJson` (lenient: a missing or
 * mistyped field reads as null/default, as the TypeScript side reads answers) and `ToJson` (absent fields
 * left out). Integers are `long` (the schemas allow safe integers), optional numbers and flags nullable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { END_BEFORE_START, SESSION_RULES } from '../core/schema/playtime-rules.js';
import { CREATOR_KEY_PATTERN, CreatorKey, Id, MAX_TIMER_MS, Metadata, optional, PositiveInt, type Rule, TimerMs, Timestamp } from '../core/schema/rules.js';
import { WEB_PAGE_PATTERN } from '../core/schema/web-page.js';
import { UNITY_TYPES, UNREPRESENTABLE } from './unity-types.js';

/** Where the generated C# lives. */
export const UNITY_TYPES_FILE = join(import.meta.dirname, '../adapters/unity/Runtime/Generated/Models.g.cs');

interface JsonSchema {
  type?: string;
  $ref?: string;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
}

/** How one property is typed, read and written in C#. */
interface CsType {
  type: string;
  read: (key: string) => string;
  write: (field: string) => string;
  note?: string;
}

function csType(schema: JsonSchema, required: boolean, where: string): CsType {
  if (schema.$ref) {
    const name = schema.$ref;
    return { type: name, read: (key) => `${name}.FromJson(Json.Field(o, "${key}"))`, write: (f) => `${f} == null ? null : ${f}.ToJson()` };
  }
  const nullable = (t: string) => (required ? t : `${t}?`);
  const orDefault = (expression: string, fallback: string) => (required ? `${expression} ?? ${fallback}` : expression);
  switch (schema.type) {
    case 'string':
      return { type: 'string', read: (key) => `Json.Str(o, "${key}")`, write: (f) => f, ...(schema.enum ? { note: `One of: ${schema.enum.join(', ')}.` } : {}) };
    case 'integer':
      return { type: nullable('long'), read: (key) => orDefault(`Json.Long(o, "${key}")`, '0L'), write: (f) => f };
    case 'number':
      return { type: nullable('double'), read: (key) => orDefault(`Json.Num(o, "${key}")`, '0d'), write: (f) => f };
    case 'boolean':
      return { type: nullable('bool'), read: (key) => orDefault(`Json.Bool(o, "${key}")`, 'false'), write: (f) => f };
    case 'array': {
      const item = csType(schema.items ?? {}, true, `${where}[]`);
      if (schema.items?.$ref) {
        const name = schema.items.$ref;
        return { type: `List<${name}>`, read: (key) => `Json.Items(o, "${key}", ${name}.FromJson)`, write: (f) => `Json.Write(${f}, item => item.ToJson())` };
      }
      if (item.type !== 'string') throw new Error(`${where}: arrays of ${item.type} are not mapped`);
      return { type: 'List<string>', read: (key) => `Json.Items(o, "${key}", Json.AsString)`, write: (f) => `Json.Write(${f}, item => item)` };
    }
    case 'object': {
      const values = schema.additionalProperties;
      if (typeof values === 'object' && values.type === 'string' && !schema.properties) {
        return { type: 'Dictionary<string, string>', read: (key) => `Json.StringMap(o, "${key}")`, write: (f) => `Json.Write(${f})` };
      }
      if (!schema.properties) return { type: 'Dictionary<string, object>', read: (key) => `Json.Obj(Json.Field(o, "${key}"))`, write: (f) => f };
      throw new Error(`${where}: inline objects need a name in scripts/unity-types.ts`);
    }
    default:
      throw new Error(`${where}: no C# type for ${JSON.stringify(schema)}`);
  }
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

function renderClass(name: string, summary: string, schema: JsonSchema): string {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([key, property]) => ({ key, field: pascal(key), cs: csType(property, required.has(key), `${name}.${key}`), optional: !required.has(key) }));
  const lines = [
    `    /// <summary>${summary}</summary>`,
    '    [Serializable]',
    `    public sealed partial class ${name}`,
    '    {',
    ...fields.flatMap(({ key, field, cs, optional }) => [
      `        /// <summary>JSON <c>${key}</c>${optional ? ' (optional: null when absent)' : ''}.${cs.note ? ` ${cs.note}` : ''}</summary>`,
      `        public ${cs.type} ${field};`,
    ]),
    '',
    `        /// <summary>Reads a parsed JSON object (null for anything else).</summary>`,
    `        public static ${name} FromJson(object node)`,
    '        {',
    '            var o = node as Dictionary<string, object>;',
    '            if (o == null) return null;',
    `            return new ${name}`,
    '            {',
    ...fields.map(({ key, field, cs }) => `                ${field} = ${cs.read(key)},`),
    '            };',
    '        }',
    '',
    '        /// <summary>The JSON object of this value, without the absent fields.</summary>',
    '        public Dictionary<string, object> ToJson()',
    '        {',
    '            var o = new Dictionary<string, object>();',
    ...fields.map(({ key, field, cs }) => `            Json.Put(o, "${key}", ${cs.write(field)});`),
    '            return o;',
    '        }',
    '    }',
  ];
  return lines.join('\n');
}

/** A C# string literal of `text`. */
const csString = (text: string): string => JSON.stringify(text);

/**
 * A JavaScript pattern (no flags, or `i`) as .NET reads it the same: JavaScript's `$` is the end of the input, .NET's also matches
 * before a final `\n` (so "ABCDE\n" passed `^[A-Z0-9]{5}$` in C#), and `\z` is the end of the input. Only an end anchor
 * is translated: a pattern with any other `$`, or flags, is refused rather than translated wrong.
 */
function dotNetPattern(pattern: RegExp): string {
  const source = pattern.source.replace(/\$$/, '\\z');
  if ((pattern.flags !== '' && pattern.flags !== 'i') || source.includes('$')) throw new Error(`generate-unity-types: ${pattern} needs a translation to .NET`);
  // `i` as .NET's inline option; C# builds it with RegexOptions.CultureInvariant (a Turkish device's "I" is not "i").
  return (pattern.flags === 'i' ? '(?i)' : '') + source;
}

/**
 * The rules the managed tracker checks before a session is played (core/schema/rules.ts, the one rule source):
 * the creator key's pattern and the messages, so C# refuses what the JavaScript tracker refuses, in its words.
 */
function renderRules(): string {
  return [
    '    /// <summary>Rules from core/schema/rules.ts that the managed tracker checks itself.</summary>',
    '    internal static class Rules',
    '    {',
    '        /// <summary>A creator key, as a .NET regular expression: the JavaScript pattern with its end anchor as <c>\\z</c> (.NET\'s <c>$</c> also matches before a final line break).</summary>',
    `        internal const string CreatorKeyPattern = ${csString(dotNetPattern(CREATOR_KEY_PATTERN))};`,
    '        /// <summary>What a creator key that does not match gets.</summary>',
    `        internal const string CreatorKeyMessage = ${csString(CreatorKey.message!)};`,
    '        /// <summary>What an empty id gets.</summary>',
    `        internal const string IdMessage = ${csString(Id.message!)};`,
    '        /// <summary>What a session\'s <c>durationSeconds</c> under 1 gets (core/schema/playtime-rules.ts): the too-short drop\'s detail.</summary>',
    `        internal const string PositiveIntMessage = ${csString(PositiveInt.message!)};`,
    '        /// <summary>What a session\'s <c>startedAt</c>/<c>endedAt</c> not of the form <c>YYYY-MM-DDTHH:mm:ss.sssZ</c> gets: a recovered record\'s drop detail.</summary>',
    `        internal const string TimestampMessage = ${csString(Timestamp.message!)};`,
    '        /// <summary>The longest timer a runtime keeps, ms (core/schema/rules.ts <c>MAX_TIMER_MS</c>: setTimeout\'s 32-bit signed count): the top of <c>TimerMs</c>.</summary>',
    `        internal const double MaxTimerMs = ${MAX_TIMER_MS};`,
    '        /// <summary>The web view address a relay hands out (core/schema/web-page.ts), as a .NET regular expression: build it with <c>RegexOptions.CultureInvariant</c>.</summary>',
    `        internal const string WebPagePattern = ${csString(dotNetPattern(WEB_PAGE_PATTERN))};`,
    '        /// <summary>What a session whose <c>endedAt</c> comes before its <c>startedAt</c> gets (core/schema/playtime-rules.ts <c>END_BEFORE_START</c>), at that path.</summary>',
    `        internal const string EndBeforeStartPath = ${csString(END_BEFORE_START.path)};`,
    `        internal const string EndBeforeStartMessage = ${csString(END_BEFORE_START.message)};`,
    '    }',
  ].join('\n');
}

/**
 * The C# test of each predicate the session rules use, found by the predicate itself (`optional()` copies it): C#
 * cannot run a JavaScript function, so each has one hand-written counterpart (Runtime/Managed/FieldRules.cs), and a
 * rule with a predicate not listed here is refused rather than checked wrong.
 */
const RULE_TESTS = new Map<unknown, string>([
  [Id.test, 'NotEmpty'],
  [CreatorKey.test, 'CreatorKey'],
  [PositiveInt.test, 'PositiveInt'],
  [TimerMs.test, 'TimerMs'],
  [Timestamp.test, 'Timestamp'],
  [Metadata.test, 'Record'],
]);

/** One C# `FieldRule` of the table: the field, its JSON type, its C# test, its message, whether it may be left out. */
export function renderFieldRule(name: string, rule: Rule<never>): string {
  const test = RULE_TESTS.get(rule.test);
  if (!test) throw new Error(`generate-unity-types: the rule of ${name} has a test with no C# counterpart (add one to RULE_TESTS and FieldRules.cs)`);
  const type = rule.type ? csString(rule.type) : 'null';
  return `            new FieldRule(${csString(name)}, ${type}, RuleTest.${test}, ${csString(rule.message ?? '')}, ${rule.optional ? 'true' : 'false'}),`;
}

/** The rules of `names` out of the session's rules, in that order. */
function sessionRulesOf(names: readonly (keyof typeof SESSION_RULES)[]): string[] {
  return names.map((name) => renderFieldRule(name, SESSION_RULES[name] as Rule<never>));
}

/**
 * The timing and limit options of `Init`, with core/tracker/options.ts `resolveTrackerOptions`'s rules in its order:
 * intervals and time-outs `TimerMs`, counts `PositiveInt` (field-rules.test.ts holds the C# checks to that function's).
 */
const TRACKER_SETTING_RULES: readonly [string, Rule<never>][] = [
  ['flushIntervalMs', TimerMs as Rule<never>],
  ['flushAt', PositiveInt as Rule<never>],
  ['maxQueue', PositiveInt as Rule<never>],
  ['checkpointMs', TimerMs as Rule<never>],
  ['backgroundTimeoutMs', TimerMs as Rule<never>],
];

/**
 * The field rule tables the managed tracker checks with (core/schema/playtime-rules.ts `SESSION_RULES`): a finished
 * session, and the session fields a game passes at `Init` and at `Start` (the same rules: core/tracker/options.ts
 * `sessionDefaults`, `checkStartOptions`). Only outside a WebGL player, where the managed tracker runs.
 */
function renderRuleTables(): string {
  const sessionFields = Object.keys(SESSION_RULES) as (keyof typeof SESSION_RULES)[];
  return [
    '#if !UNITY_WEBGL || UNITY_EDITOR',
    '    /// <summary>The field rules of core/schema/playtime-rules.ts <c>SESSION_RULES</c> the managed tracker checks with (<see cref="FieldRules"/>).</summary>',
    '    internal static class RuleTables',
    '    {',
    '        /// <summary>Every field of a finished session, as the tracker checks one before queueing it (<c>checkPlaytimeItem</c>).</summary>',
    '        internal static readonly FieldRule[] Session =',
    '        {',
    ...sessionRulesOf(sessionFields),
    '        };',
    '',
    '        /// <summary>',
    '        /// <c>Init</c>\'s options (core/tracker/options.ts <c>resolveTrackerOptions</c>): the timing and limits, then the',
    '        /// session defaults (<c>sessionDefaults</c>).',
    '        /// </summary>',
    '        internal static readonly FieldRule[] InitOptions =',
    '        {',
    // Optional here: C# checks them before the defaults are applied (JavaScript checks them after).
    ...TRACKER_SETTING_RULES.map(([name, rule]) => renderFieldRule(name, optional(rule) as Rule<never>)),
    ...sessionRulesOf(['campaignId', 'creatorKey']),
    '        };',
    '',
    '        /// <summary>The fields of one <c>Start</c> (core/tracker/options.ts <c>checkStartOptions</c>).</summary>',
    '        internal static readonly FieldRule[] StartFields =',
    '        {',
    ...sessionRulesOf(['campaignId', 'creatorKey', 'metadata']),
    '        };',
    '    }',
    '#endif',
  ].join('\n');
}

/** The whole generated C# file, for `types` (the default: every type of scripts/unity-types.ts). */
export function renderUnityTypes(types: typeof UNITY_TYPES = UNITY_TYPES): string {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of types) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    uri: (id) => id,
    unrepresentable: 'any',
    override: (ctx) => {
      const replacement = UNREPRESENTABLE.get(ctx.zodSchema);
      if (replacement) Object.assign(ctx.jsonSchema, replacement);
    },
  }) as unknown as { schemas: Record<string, JsonSchema> };
  const classes = [...types.map(([name, , summary]) => renderClass(name, summary, schemas[name]!)), renderRules(), renderRuleTables()];
  return [
    '// <auto-generated>',
    '// Generated by scripts/generate-unity-types.ts from the SDK\'s zod schemas. Do not edit:',
    '// run `npx tsx scripts/generate-unity-types.ts` instead.',
    '// </auto-generated>',
    'using System;',
    'using System.Collections.Generic;',
    '',
    'namespace GameCampaignSdk',
    '{',
    classes.join('\n\n'),
    '}',
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(UNITY_TYPES_FILE, renderUnityTypes());
  console.log(`wrote ${UNITY_TYPES_FILE}`);
}
