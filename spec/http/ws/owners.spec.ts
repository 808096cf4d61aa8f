import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import ts from 'typescript';

/**
 * The one file that writes each field the fan-out's parts share (`state.ts`): assigns it,
 * counts it up or down, or changes the collection it holds. The others only read it.
 */
const owners: Readonly<Record<string, string>> = {
  'Topic.members': 'topics.ts',
  'Topic.goes': 'topics.ts',
  'Topic.pending': 'outbox.ts',
  'Topic.listening': 'outbox.ts',
  'Topic.slices': 'outbox.ts',
  'Topic.sliceOf': 'outbox.ts',
  'Topic.nextSlice': 'outbox.ts',
  'Slice.members': 'outbox.ts',
  'Slice.sentTurns': 'outbox.ts',
  'Topic.unsent': 'outbox.ts',
  'Topic.unsentFrom': 'outbox.ts',
  'EndedTurn.encoded': 'outbox.ts',
  'Topic.held': 'sending.ts',
  'Topic.nextTick': 'sending.ts',
  'Topic.lastTick': 'sending.ts',
  'Topic.matched': 'matching.ts',
  'Topic.wide': 'matching.ts',
  'Topic.finding': 'matching.ts',
  'Topic.waiting': 'matching.ts',
  'Topic.snapshots': 'snapshots.ts',
  'Entry.message': 'changes.ts',
  'Entry.topics': 'changes.ts',
  'Entry.topicsVersion': 'changes.ts',
  'Entry.changedAt': 'changes.ts',
  'Snapshot.done': 'snapshots.ts',
  'Snapshot.queue': 'snapshots.ts',
  'Snapshot.next': 'snapshots.ts',
  'Snapshot.queuedBytes': 'snapshots.ts',
  'Snapshot.bytes': 'snapshots.ts',
};

/** Methods that change the collection they are called on. */
const CHANGING = new Set(['add', 'delete', 'set', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill']);

const ws = resolve(dirname(fileURLToPath(import.meta.url)), '../../../lib/http/ws');
const files = readdirSync(ws)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join(ws, name));
const program = ts.createProgram(files, { allowImportingTsExtensions: true, noEmit: true, strict: true });
const checker = program.getTypeChecker();
const state = join(ws, 'state.ts');

/** `Topic.members` for a property of one of state.ts's records, else undefined. */
function fieldOf(access: ts.PropertyAccessExpression): string | undefined {
  const declaration = checker.getSymbolAtLocation(access.name)?.declarations?.[0];
  if (!declaration || declaration.getSourceFile().fileName !== state) return undefined;
  const record = declaration.parent;
  const name = (ts.isClassDeclaration(record) || ts.isInterfaceDeclaration(record)) && record.name?.text;
  return name ? `${name}.${access.name.text}` : undefined;
}

/** Every write to a field of state.ts's records, outside the record's own class: `file: Record.field`. */
function writes(): string[] {
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file) as ts.SourceFile;
    const note = (target: ts.Expression) => {
      if (!ts.isPropertyAccessExpression(target) || target.expression.kind === ts.SyntaxKind.ThisKeyword) return;
      const field = fieldOf(target);
      if (field) found.push(`${relative(ws, file)}: ${field}`);
    };
    const visit = (node: ts.Node): void => {
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
        node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
      )
        note(node.left);
      else if (
        (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        [ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken].includes(node.operator)
      )
        note(node.operand);
      else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && CHANGING.has(node.expression.name.text))
        note(node.expression.expression);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

test('each field the fan-out parts share is written by its one owner and only read by the others', (t) => {
  const found = writes();
  t.true(found.length > 20, 'the writes are seen');
  t.deepEqual(
    found.filter((write) => {
      const [file, field] = write.split(': ') as [string, string];
      return owners[field] !== file;
    }),
    [],
  );
});

test('every field of the shared records that can change has an owner; a client and a member never change', (t) => {
  const source = program.getSourceFile(state) as ts.SourceFile;
  const changing: string[] = [];
  for (const statement of source.statements) {
    if (!(ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) || !statement.name) continue;
    for (const member of statement.members) {
      if (!(ts.isPropertyDeclaration(member) || ts.isPropertySignature(member)) || !ts.isIdentifier(member.name)) continue;
      const readonly = ts.getModifiers(member)?.some((modifier) => modifier.kind === ts.SyntaxKind.ReadonlyKeyword);
      if (!readonly) changing.push(`${statement.name.text}.${member.name.text}`);
    }
  }
  t.deepEqual(
    changing.filter((field) => !(field in owners)),
    [],
  );
});
