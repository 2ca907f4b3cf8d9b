import type { OutboxEntry } from './db';

/**
 * The changes the staff outbox can queue, each declared by the feature it belongs to (next to its offline readers,
 * docs/architecture.md#offline-design). The outbox (src/lib/outbox.ts) knows no endpoint: it asks the change's
 * kind for its request, its target and how to read the server's state of it. The routes are templates
 * (`/api/admin/customers/:id/`) filled from the change's fields, so that tests/integration/offline-changes.test.ts
 * can check each against the server's route table.
 */

type ChangeMethod = 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface RouteTemplate<M extends string = string> {
  method: M;
  /** A path with `:name` parameters, as the server declares it. */
  path: string;
}

/** What a refused change shows to the person deciding it (src/app/offline/offline-status.tsx). */
export interface ChangeDescription {
  title: string;
  /** A reference printed beside the title (a reservation's number). */
  reference?: string;
  link: string;
  mineLabel: string;
  theirsLabel: string;
  mine: string;
  /** The server's state as read at the refusal (the entry's serverState, non-null). */
  theirs: string;
}

/** A change as the screens hand it to sendOrQueue: its kind's name and the kind's own fields. */
export interface QueuedChange {
  kind: string;
  [field: string]: unknown;
}

export interface ChangeKind<P extends object = Record<string, unknown>> {
  kind: string;
  /** The request that makes the change. */
  route: RouteTemplate<ChangeMethod>;
  /** The GET that reads the changed object as the server has it now (for a person deciding a conflict). */
  stateRoute: RouteTemplate<'GET'>;
  /** The route's parameters, from the change's (or stored entry's) fields. */
  params(change: P): Record<string, string | number>;
  /** What the change is about: entries of one target replay in order, a stuck one holds back the later ones. */
  target(change: P): string;
  /** The JSON body; a kind that sends multipart gives `form` instead. */
  body?(change: P): unknown;
  /** The fields kept on the entry beside the request: read by the screens (the local effect) and by `form`. */
  keep(change: P): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** A multipart body rebuilt from the kept fields at every attempt (a FormData cannot be kept in IndexedDB). */
  form?(entry: OutboxEntry): FormData;
  /** Whether sending a refused change again could ever work (default: yes). */
  canRetry?(entry: OutboxEntry): boolean;
  describe(entry: OutboxEntry): ChangeDescription;
}

const kinds = new Map<string, ChangeKind>();

/** Declares (and registers) a kind of queueable change; the result also builds its changes: `kind.of(fields)`. */
export function defineChange<P extends object>(spec: ChangeKind<P>): ChangeKind<P> & { of(fields: P): QueuedChange } {
  kinds.set(spec.kind, spec as unknown as ChangeKind);
  return { ...spec, of: (fields) => ({ ...fields, kind: spec.kind }) };
}

export function changeKindOf(kind: string): ChangeKind | undefined {
  return kinds.get(kind);
}

export function changeKindFor(change: QueuedChange): ChangeKind {
  const kind = kinds.get(change.kind);
  if (!kind) throw new Error(`outbox: no change kind "${change.kind}" is registered`);
  return kind;
}

/** `/a/:id/b/` with `{ id: 5 }` → `/a/5/b/` (each value URL-encoded). */
export function fillPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`outbox: no value for :${name} in ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** The request of a change, ready to send or keep. */
export function requestOf(change: QueuedChange): { method: ChangeMethod; path: string; body?: unknown } {
  const kind = changeKindFor(change);
  const body = kind.body?.(change);
  return {
    method: kind.route.method,
    path: fillPath(kind.route.path, kind.params(change)),
    ...(body === undefined ? {} : { body }),
  };
}

/** Where the server's state of a stored entry is read (undefined: its kind is not known in this page). */
export function statePathOf(entry: OutboxEntry): string | undefined {
  const kind = kinds.get(entry.kind);
  return kind ? fillPath(kind.stateRoute.path, kind.params(entry as never)) : undefined;
}
