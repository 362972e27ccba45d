// The C# data classes are generated from the SDK's zod schemas: the checked-in file must be what the generator
// writes today, so a schema change that was not regenerated fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { renderUnityTypes, UNITY_TYPES_FILE } from '../../../scripts/generate-unity-types.js';
import { UNITY_TYPES } from '../../../scripts/unity-types.js';

describe('generated Unity types', () => {
  it('are current (run `npx tsx scripts/generate-unity-types.ts` after a schema change)', () => {
    expect(readFileSync(UNITY_TYPES_FILE, 'utf8')).toBe(renderUnityTypes());
  });

  it('follow the schemas: every field of every schema, optional ones nullable, refinements mapped', () => {
    const text = renderUnityTypes();
    for (const [name, schema] of UNITY_TYPES) {
      const shape = (schema as unknown as { _zod: { def: { shape?: Record<string, unknown> } } })._zod.def.shape;
      expect(text).toContain(`public sealed partial class ${name}`);
      for (const key of Object.keys(shape ?? {})) expect(text).toContain(`Json.Put(o, "${key}", `);
    }
    expect(text).toContain('public long DurationSeconds;'); // PositiveInt: a refinement, mapped to integer
    expect(text).toContain('public Dictionary<string, object> Metadata;'); // Metadata: a custom check, mapped to object
    expect(text).toContain('public long? DaysRemaining;');
    expect(text).toContain('public Dictionary<string, string> CampaignName;');
  });

  it('changes when a schema changes (the staleness check can fail)', () => {
    // A type no other type refers to (a changed copy of a referenced one would no longer be the same schema).
    const extended = UNITY_TYPES.map(([name, schema, summary]): [string, z.ZodMiniType, string] => [name, name === 'TrackerError' ? z.extend(schema as z.ZodMiniObject, { avatarUrl: z.optional(z.string()) }) : schema, summary]);
    const text = renderUnityTypes(extended);
    expect(text).not.toBe(renderUnityTypes());
    expect(text).toContain('public string AvatarUrl;');
  });
});
