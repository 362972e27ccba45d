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
  #page: Promise<Page<T>> | undefined;

  /** `firstPage` may be a function, evaluated on first use; if it throws, the page promise rejects. */
  constructor(fetch: PageFetcher<T>, firstPage: number | (() => number) = 1) {
    this.#fetch = fetch;
    this.#first = firstPage;
  }

  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.#page ??= (async () => loadPage(this.#fetch, typeof this.#first === 'function' ? this.#first() : this.#first))();
    return this.#page.then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const item of await this) yield item;
  }
}

async function loadPage<T>(fetch: PageFetcher<T>, number: number, previous?: T[]): Promise<Page<T>> {
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
    nextPage: () => (hasNextPage() ? loadPage(fetch, number + 1, data) : Promise.reject(new RangeError('No next page'))),
    async *[Symbol.asyncIterator]() {
      for (let current = page; ; current = await current.nextPage()) {
        for (const item of current.data) yield item;
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
export function pagedList<T>(transport: Transport, prepare: () => PagedRequest): PagePromise<T> {
  let prepared: PagedRequest | undefined;
  const ready = () => (prepared ??= prepare());
  return new PagePromise((page) => transport.request<{ data: T[]; pagination: Pagination }>(ready().spec(page)), () => ready().firstPage ?? 1);
}
