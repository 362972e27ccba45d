/** Reads the latency statistics of a finished tinybench task. */
import type { Task } from 'tinybench';

/** p50, p99 and mean in ms, and the sample count; throws when the task did not complete. */
export function latency(task: Task): { p50: number; p99: number; mean: number; samples: number } {
  const { result } = task;
  if (result.state !== 'completed') throw new Error(`bench task "${task.name}" ${result.state === 'errored' ? `failed: ${result.error.message}` : result.state}`);
  return { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.mean, samples: result.latency.samplesCount };
}
