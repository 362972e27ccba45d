// Types of structural-declarations.mjs, for its test.
export declare function structuralDeclarations(declarations: string): string;
