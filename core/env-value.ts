/**
 * What is wrong with a secret as an environment file often leaves it, or undefined: a line break or space around it (a
 * file saved with CRLF, `KEY=$(cat key.txt)` keeping the newline, a value pasted with a space) or quotes around it
 * (Docker's `--env-file` and Compose's `env_file` before v2 keep them as part of the value). Server code only: the
 * message of a key or webhook secret refused, which otherwise said only its form, or (quotes) was accepted and
 * failed every call with 401. Beside both the server and the webhooks modules, which each use it.
 */
export function envValueProblem(value: string): string | undefined {
  if (value !== value.trim()) return 'has a line break or space at its start or end (read from an env file? trim it)';
  if (/^(["']).*\1$/s.test(value)) return 'is wrapped in quotes, which are not part of it (an env file read without removing them?)';
  return undefined;
}
