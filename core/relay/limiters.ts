/**
 * rate-limiter-flexible's two limiters the relay builds, each imported from its own file. The package's index
 * also loads `RateLimiterCluster`, which requires Node's `cluster` and `crypto`: a Worker dated before
 * 2025-12-04 has no `node:cluster` even with `nodejs_compat` (workerd 1.20261117.1 refuses the import at
 * 2025-12-03), and an esbuild build for a Worker or the edge cannot resolve either. Through these files the
 * server entry reaches no Node built-in at all, so a Worker needs no `nodejs_compat` for it.
 */
/// <reference path="./limiter-files.d.ts" />
import type * as Flexible from 'rate-limiter-flexible';
import Memory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import Redis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';

/** One process's limiter, counting in memory. */
export const RateLimiterMemory: typeof Flexible.RateLimiterMemory = Memory;
/** A fleet's limiter, counting in the Redis the game passes. */
export const RateLimiterRedis: typeof Flexible.RateLimiterRedis = Redis;
