/**
 * A stand-in for what a Unity WebGL build does with a .jslib, in Node: the library is evaluated with
 * `mergeInto`/`LibraryManager`/`autoAddDeps`, `{{{ makeDynCall(sig, ptr) }}}` is expanded the way Unity's
 * emscripten expands it, and only the symbols reachable through `__deps` from the called functions are linked
 * (as emscripten does), over a heap (an ArrayBuffer) with a malloc/free that records every allocation.
 *
 * The C# side is emulated as IL2CPP does it: a `string` argument is marshalled to a UTF-8 copy on the heap for
 * the duration of the call, and the [MonoPInvokeCallback] is a function-table entry that copies its string
 * argument (`UTF8ToString`) before returning.
 */
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

/**
 * How `{{{ makeDynCall(sig, ptr) }}}` is expanded, per Unity version (Unity manual "Native plug-ins with
 * Emscripten": 2021.2+ Emscripten 2.0.19, 2022.2+ 3.1.8, 2023.2+/Unity 6 3.1.38, 6000.5+ 4.0.19), after
 * Emscripten's src/parseTools.js `makeDynCall`:
 * - `table`: 3.1 and later without DYNCALLS (Unity 2022.3, Unity 6): `getWasmTableEntry(ptr)`;
 * - `wasmTable`: 2.0.x without DYNCALLS (Unity 2021.3): `wasmTable.get(ptr)`;
 * - `dynCall`: with DYNCALLS (the dynCall_* exports; 2.0.x and 3.1.x): `function(a1) { dynCall_vi.apply(null, [ptr, a1]) }`;
 * - `moduleDynCall`: the same in a dynamically linked (MAIN_MODULE) build, where `exportedAsmFunc` reads the
 *   export from `Module['dynCall_vi']`.
 */
export type DynCallStyle = 'table' | 'wasmTable' | 'dynCall' | 'moduleDynCall';

/** Every expansion above: the jslib must work with each. */
export const DYN_CALL_STYLES: readonly DynCallStyle[] = ['table', 'wasmTable', 'dynCall', 'moduleDynCall'];

/** What C# received through its callback: the parsed JSON envelopes, in order. */
export type Envelope = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Replaces each `{{{ makeDynCall('vi', 'expr') }}}` as the build would. */
export function expandMacros(source: string, style: DynCallStyle): string {
  return source.replace(/\{\{\{\s*makeDynCall\(\s*'(\w+)'\s*,\s*'([^']+)'\s*\)\s*\}\}\}/g, (_, sig: string, pointer: string) => {
    if (style === 'table') return `getWasmTableEntry(${pointer})`;
    if (style === 'wasmTable') return `wasmTable.get(${pointer})`;
    const args = Array.from({ length: sig.length - 1 }, (_, i) => `a${i + 1}`).join(', ');
    const dynCall = style === 'dynCall' ? `dynCall_${sig}` : `Module['dynCall_${sig}']`;
    return `(function(${args}) { ${dynCall}.apply(null, [${pointer}${args ? ', ' + args : ''}]); })`;
  });
}

export interface FakeUnityRuntime {
  /** Calls a jslib function the way C# does through [DllImport("__Internal")]; strings are marshalled. */
  callExtern(name: string, ...args: Array<string | number | null>): unknown;
  /** C#'s `Bridge.Call`: a request id, the method, its JSON arguments; resolves with the envelope answering it. */
  request(method: string, args?: unknown): Promise<Envelope>;
  /** Every envelope the C# callback received. */
  readonly messages: Envelope[];
  /** `SendMessage` calls (none expected: the bridge calls back through makeDynCall). */
  readonly sentMessages: unknown[][];
  /** Heap blocks allocated and not yet freed (pointer -> size). */
  readonly live: ReadonlyMap<number, number>;
  /** How many blocks were ever allocated. */
  readonly allocations: number;
  /** The symbols the link pulled in (from `__deps`). */
  readonly linked: string[];
}

/** Loads `jslibPath` over `window` (the page's globals, holding `GameCampaign`). */
export function createFakeUnityRuntime(options: { jslibPath: string; window: Record<string, unknown>; dynCall?: DynCallStyle }): FakeUnityRuntime {
  const heap = new Uint8Array(new ArrayBuffer(8 * 1024 * 1024));
  const live = new Map<number, number>();
  let top = 16;
  let allocations = 0;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  const runtime = {
    _malloc(size: number): number {
      if (!Number.isInteger(size) || size <= 0) throw new Error(`malloc(${size})`);
      const pointer = top;
      top += (size + 7) & ~7;
      if (top > heap.length) throw new Error('out of heap');
      live.set(pointer, size);
      allocations++;
      return pointer;
    },
    _free(pointer: number): void {
      if (pointer === 0) return;
      if (!live.delete(pointer)) throw new Error(`free(${pointer}): not an allocated block (double free?)`);
      heap.fill(0xee, pointer, pointer + 8); // a read after free shows as garbage, not as the old string
    },
    lengthBytesUTF8: (text: string) => encoder.encode(text).length,
    stringToUTF8(text: string, pointer: number, maxBytes: number): number {
      const size = live.get(pointer);
      if (size === undefined || maxBytes > size) throw new Error(`stringToUTF8 into ${maxBytes} bytes at ${pointer}: not inside one allocated block`);
      const bytes = encoder.encode(text);
      if (bytes.length + 1 > maxBytes) throw new Error('stringToUTF8: the string does not fit (the jslib sized it wrong)');
      heap.set(bytes, pointer);
      heap[pointer + bytes.length] = 0;
      return bytes.length;
    },
    UTF8ToString(pointer: number): string {
      if (!pointer) return '';
      let end = pointer;
      while (heap[end] !== 0) end++;
      return decoder.decode(heap.subarray(pointer, end));
    },
  };

  // The function table: index 0 is null, as in wasm.
  const table: Array<((...args: number[]) => void) | null> = [null];
  const messages: Envelope[] = [];
  const waiters = new Map<number, (envelope: Envelope) => void>();
  table.push((pointer: number) => {
    // C#'s OnMessage(string json): IL2CPP copies the UTF-8 string before the method runs.
    const envelope = JSON.parse(runtime.UTF8ToString(pointer)) as Envelope;
    messages.push(envelope);
    if (typeof envelope['id'] === 'number') waiters.get(envelope['id'])?.(envelope);
  });
  const callbackIndex = 1;

  const sentMessages: unknown[][] = [];
  const library: Record<string, unknown> = {};
  const context = vm.createContext({
    window: options.window,
    console,
    LibraryManager: { library },
    mergeInto(target: Record<string, unknown>, source: Record<string, unknown>) {
      for (const [key, value] of Object.entries(source)) target[key] = value;
    },
    // Unity's DynamicJslibLoader: every function of `object` depends on `name`.
    autoAddDeps(object: Record<string, unknown>, name: string) {
      for (const key of Object.keys(object)) {
        if (typeof object[key] !== 'function' || key.includes('__')) continue;
        const deps = (object[`${key}__deps`] ??= []) as string[];
        deps.push(name);
      }
    },
  });
  const source = expandMacros(readFileSync(options.jslibPath, 'utf8'), options.dynCall ?? 'table');
  vm.runInContext(source, context, { filename: options.jslibPath });

  // The link: the called functions as `_name`, and whatever their `__deps` reach (`$name` -> `name`).
  const linked = new Set<string>();
  const link = (symbol: string) => {
    if (linked.has(symbol)) return;
    linked.add(symbol);
    const value = library[symbol];
    if (value === undefined) throw new Error(`unresolved symbol ${symbol}`);
    context[symbol.startsWith('$') ? symbol.slice(1) : `_${symbol}`] = value;
    for (const dep of (library[`${symbol}__deps`] as string[] | undefined) ?? []) link(dep);
  };
  // What every Unity WebGL build provides to a .jslib.
  Object.assign(context, runtime, {
    HEAPU8: heap,
    getWasmTableEntry: (index: number) => table[index],
    wasmTable: { get: (index: number) => table[index] },
    dynCall_vi: (index: number, a1: number) => table[index]!(a1),
    Module: { dynCall_vi: (index: number, a1: number) => table[index]!(a1) },
    SendMessage: (...args: unknown[]) => sentMessages.push(args),
  });
  (options.window as Record<string, unknown>)['unityInstance'] ??= { SendMessage: (...args: unknown[]) => sentMessages.push(args) };

  let nextId = 0;
  const callExtern = (name: string, ...args: Array<string | number | null>): unknown => {
    link(name);
    const marshalled = args.map((arg) => {
      if (typeof arg !== 'string') return arg ?? 0;
      const size = runtime.lengthBytesUTF8(arg) + 1;
      const pointer = runtime._malloc(size);
      runtime.stringToUTF8(arg, pointer, size);
      return pointer;
    });
    try {
      return (context[`_${name}`] as (...a: unknown[]) => unknown)(...marshalled);
    } finally {
      marshalled.forEach((pointer, i) => typeof args[i] === 'string' && runtime._free(pointer as number));
    }
  };
  callExtern('GameCampaign_Register', callbackIndex);

  return {
    callExtern,
    request(method, args = {}) {
      const id = ++nextId;
      const answered = new Promise<Envelope>((resolve) => waiters.set(id, resolve));
      callExtern('GameCampaign_Call', id, method, JSON.stringify(args));
      return answered;
    },
    messages,
    sentMessages,
    live,
    get allocations() {
      return allocations;
    },
    get linked() {
      return [...linked];
    },
  };
}
