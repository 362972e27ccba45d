// Types of plain-declarations.mjs, for its test.
export declare function importsZod(file: string, seen?: Set<string>): boolean;
export declare function plainDeclarations(declarations: string, fileName: string): string;
export declare function zodReferences(declarations: string): string[];
