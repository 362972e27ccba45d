// Types of size-budgets.mjs.
export declare const KB: number;
export declare const START_UP_CODE: number;
