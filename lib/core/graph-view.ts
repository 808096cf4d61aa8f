import type { Graph, GraphView } from './graph.ts';

/** A view of `graph` that can only read it (`GraphView`): what connections get. */
export function readOnlyView(graph: Graph): GraphView {
  return {
    get: (address) => graph.get(address),
    lookup: (address) => graph.lookup(address),
    watch: (address) => graph.watch(address),
    follow: (address, present) => graph.follow(address, present),
    hasConnection: (connectionId) => graph.hasConnection(connectionId),
    all: () => graph.all(),
    byPrefix: (prefix) => graph.byPrefix(prefix),
    added$: graph.added$,
    removed$: graph.removed$,
    tables$: graph.tables$,
    everyParameter: (present, gone) => graph.everyParameter(present, gone),
    forgotten$: graph.forgotten$,
    described$: graph.described$,
    get size() {
      return graph.size;
    },
  };
}
