import { bulkResult } from '../core/tracker/fake-relay.js';

/**
 * The body the service answers a bulk play-time request with, as a story's relay route gives it: each `sessionId`
 * is recorded once (SUCCESS), a copy sent again is SKIPPED (spec: a duplicate sessionId is skipped); `recorded`
 * counts the records of each.
 */
export function recordingAnswer(sessions: ReadonlyArray<{ sessionId: string }>, recorded: Map<string, number>): string {
  const results = sessions.map(({ sessionId }) => {
    const status = recorded.has(sessionId) ? ('SKIPPED' as const) : ('SUCCESS' as const);
    recorded.set(sessionId, (recorded.get(sessionId) ?? 0) + (status === 'SUCCESS' ? 1 : 0));
    return { sessionId, status };
  });
  return JSON.stringify({ data: bulkResult(results) });
}
