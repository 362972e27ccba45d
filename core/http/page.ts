/** Paged lists: a page you can await, that is also async-iterable over every item of every page. */
import { ResponseValidationError } from './errors.js';
import type { Pagination } from '../schema/primitives.js';
import type { RequestSpec, Transport } from './transport.js';

/** One page of a paged list; `for await` over it walks every item from this page on. */
export interface Page<T> extends AsyncIterable<T> {
  data: T[];
  pagination: Pagination;
  hasNextPage(): boolean;
  /** The following page. @throws RangeError on the last page */
  nextPage(): Promise<Page<T>>;
}

type PageFetcher<T> = (page: number) => Promise<{ data: T[]; pagination: Pagination }>;

/** An item's identity in its list (a coupon usage's `id`), or undefined when it has none to compare. */
export type ItemKey<T> = (item: T) => unknown;

/**
 * What paged methods return: `await` it for the first page, or `for await` over it for every item.
 * @example
 * ```ts
 * const first = await server.campaigns.list({ limit: 50 });
 * for await (const usage of server.coupons.listUsage('user-1')) console.log(usage.couponCode);
 * ```
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetch: PageFetcher<T>;
  readonly #first: number | (() => number);
  readonly #key: ItemKey<T> | undefined;
  #page: Promise<Page<T>> | undefined;

  /**
   * `firstPage` may be a function, evaluated on first use; if it throws, the page promise rejects. `key` names an
   * item's identity, for the walk to yield each item once.
   */
  constructor(fetch: PageFetcher<T>, firstPage: number | (() => number) = 1, key?: ItemKey<T>) {
    this.#fetch = fetch;
    this.#first = firstPage;
    this.#key = key;
  }

  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.#page ??= (async () => loadPage(this.#fetch, typeof this.#first === 'function' ? this.#first() : this.#first, undefined, this.#key))();
    return this.#page.then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const item of await this) yield item;
  }
}

async function loadPage<T>(fetch: PageFetcher<T>, number: number, previous?: T[], key?: ItemKey<T>): Promise<Page<T>> {
  const { data, pagination } = await fetch(number);
  // Unchecked without `validateResponses`: a body without a page's shape (a proxy's, another version's) is the
  // service's error here, not a TypeError from `hasNextPage` or the walk.
  if (!Array.isArray(data) || typeof pagination?.totalPages != 'number') {
    throw new ResponseValidationError({ code: 'INVALID_RESPONSE', message: 'The response is not a page of a list: its data must be a list and its pagination hold totalPages' });
  }
  // A proxy that drops the query string answers page 1 to every request: the walk would yield page 1 again for each
  // page up to `totalPages`. The answer names its page (spec "Pagination object"); one without it that repeats the
  // page before it item for item is taken for the same answer.
  const answered = pagination.page;
  if (typeof answered == 'number' ? answered !== number : previous !== undefined && data.length > 0 && JSON.stringify(data) === JSON.stringify(previous)) {
    const what = typeof answered == 'number' ? `page ${answered}` : 'the page before it again';
    throw new ResponseValidationError({
      code: 'INVALID_RESPONSE',
      message: `Page ${number} was asked for and the answer is ${what}: something between here and the service (a proxy, a wrong baseUrl) drops the query string`,
    });
  }
  // An empty page ends the walk even if `totalPages` says otherwise, so a shrinking list cannot loop forever. The
  // next page is the one after the page asked for.
  const hasNextPage = () => data.length > 0 && number < pagination.totalPages;
  const page: Page<T> = {
    data,
    pagination,
    hasNextPage,
    nextPage: () => (hasNextPage() ? loadPage(fetch, number + 1, data, key) : Promise.reject(new RangeError('No next page'))),
    // Pages are numbered, not cursors: an item added before the page being read (a redemption while a user's coupon
    // usage is walked) moves the last item of each page read to the top of the next, and the walk met it twice (a
    // job granting per item granted twice). An item whose key was yielded already in this walk is skipped. An item
    // removed meanwhile moves one the other way, which no client can see: that one is missed (the guide says so).
    async *[Symbol.asyncIterator]() {
      const seen = new Set<unknown>();
      for (let current = page; ; current = await current.nextPage()) {
        for (const item of current.data) {
          const id = key?.(item);
          if (id !== undefined) {
            if (seen.has(id)) continue;
            seen.add(id);
          }
          yield item;
        }
        if (!current.hasNextPage()) return;
      }
    },
  };
  return page;
}


/** What {@link pagedList} needs: the first page to load (default 1) and the request for page `n`. */
export interface PagedRequest {
  firstPage: number | undefined;
  spec: (page: number) => RequestSpec;
}

/**
 * A paged list on the single request path. `prepare` runs on first use, not now: a bad page query (or
 * path parameter) it validates rejects on `await`/`for await` like every other method's bad input.
 * (A function beside the transport rather than a method of it, so that clients without paged lists do
 * not carry it.)
 */
export function pagedList<T>(transport: Transport, prepare: () => PagedRequest, key?: ItemKey<T>): PagePromise<T> {
  let prepared: PagedRequest | undefined;
  const ready = () => (prepared ??= prepare());
  return new PagePromise((page) => transport.request<{ data: T[]; pagination: Pagination }>(ready().spec(page)), () => ready().firstPage ?? 1, key);
}

/**
 * The {@link ItemKey} of lists whose items carry their identity in `field` (a campaign's `campaignId`, a coupon usage's
 * `id`): a string or number there, else none (an item without it, unchecked without `validateResponses`, is never
 * taken for another).
 */
export function keyOf<T>(field: keyof T & string): ItemKey<T> {
  return (item) => {
    const value = (item as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' || typeof value === 'number' ? value : undefined;
  };
}
