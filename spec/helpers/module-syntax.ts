/**
 * What the architecture spec reads from a source file, parsed by the TypeScript compiler
 * rather than matched by regular expressions: which modules the file reaches and how, and
 * which string literals it holds. Parsing keeps comments, and strings that only look like
 * imports, out of both lists.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * How a file reaches a module:
 * - `static`: an import or export declaration that stays in the JavaScript, so the module is
 *   loaded, and run, before the file itself. Under `verbatimModuleSyntax` (tsconfig.json) this
 *   includes `import { type A } from …`, which tsc and esbuild both keep as `import {} from …`.
 * - `dynamic`: `import(…)`, `require(…)`, `require.resolve(…)` or `createRequire(…)(…)`,
 *   which reach the module only when that line runs.
 * - `type`: `import type`, `export type` or a type's `import(…)`: erased from the JavaScript.
 */
export type ReferenceKind = 'static' | 'dynamic' | 'type';

export interface ModuleReference {
  readonly specifier: string;
  readonly kind: ReferenceKind;
  readonly line: number;
}

export interface StringLiteral {
  readonly text: string;
  readonly line: number;
}

export interface ModuleSyntax {
  readonly references: readonly ModuleReference[];
  /** Every string literal (and template without substitutions) that does not name a module. */
  readonly strings: readonly StringLiteral[];
}

/** `require`, `require.resolve` and `createRequire(…)`: the calls whose first argument names a module. */
function isRequire(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  if (ts.isPropertyAccessExpression(callee)) return isRequire(callee.expression) && callee.name.text === 'resolve';
  return ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire';
}

export function readModule(file: string): ModuleSyntax {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const references: ModuleReference[] = [];
  const strings: StringLiteral[] = [];
  const specifiers = new Set<ts.Node>();
  const refer = (specifier: ts.Node | undefined, kind: ReferenceKind) => {
    if (specifier === undefined || !ts.isStringLiteralLike(specifier)) return;
    specifiers.add(specifier);
    references.push({ specifier: specifier.text, kind, line: lineOf(specifier) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      refer(node.moduleSpecifier, node.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword ? 'type' : 'static');
    } else if (ts.isExportDeclaration(node)) {
      refer(node.moduleSpecifier, node.isTypeOnly ? 'type' : 'static');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      refer(node.argument.literal, 'type');
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequire(node.expression))) {
      refer(node.arguments[0], 'dynamic');
    } else if (ts.isStringLiteralLike(node) && !specifiers.has(node)) {
      strings.push({ text: node.text, line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { references, strings };
}
