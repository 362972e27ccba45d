// The rolled-up declarations of each entry (dist/<entry>.d.ts) declare the shared classes again, once per entry.
// TypeScript compares a class with a private or protected member (`#private;` included) by where it was declared,
// so a `GameCampaign` made by `game-campaign-sdk/browser` would not be the main entry's `GameCampaign`, nor a
// `WebhookReceiver` of `/server` the one `/node`'s `webhookMiddleware` takes, although at run time they are the
// same classes (the entries share dist/modules/). Those members are not part of the API (no caller can reach them),
// so they are left out of the rolled-up files: the classes are then compared by their public shape, as everything
// else is. The API report (docs/api/) keeps them.

/** A member line a caller cannot use: `#private;`, or a one-line `private`/`protected` member (not a constructor). */
const NOMINAL_MEMBER = /^[ \t]+(?:#private|(?:private|protected) (?!constructor\b)[^\r\n;]*);[ \t]*\r?\n/gm;
/** One left over (a member declared over several lines): the build fails rather than ship a class compared by name. */
const LEFT_OVER = /^[ \t]+(?:#private\b|(?:private|protected) (?!constructor\b))/m;

/** `declarations` (a rolled-up .d.ts) without the members that make a class nominal. */
export function structuralDeclarations(declarations) {
  const result = declarations.replace(NOMINAL_MEMBER, '');
  const left = LEFT_OVER.exec(result);
  if (left) throw new Error(`structural-declarations: a private or protected member over several lines is left: ${result.slice(left.index, left.index + 120)}`);
  return result;
}
