import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffChangeKinds } from '../../src/app/offline/staff-changes';
import { staffOfflineEngine } from '../../src/app/offline/staff-offline';
import { changeKindOf, fillPath } from '../../src/lib/outbox-changes';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * The outbox knows no endpoint (src/lib/outbox.ts): every queueable change is declared by its feature with the
 * route that makes it and the route that reads the object back (src/lib/outbox-changes.ts). A route renamed or
 * removed on the server without its declaration (or the other way round) fails here, not on a phone that queued
 * a change offline and can never send it.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const paramNames = (template: string) => [...template.matchAll(/:(\w+)/g)].map((match) => match[1]).sort();

describe('queueable changes against the server’s route table', () => {
  it('the features register every kind the outbox can meet, each once', () => {
    const registered = staffOfflineEngine.changes.map((kind) => kind.kind).sort();
    expect(registered).toEqual(staffChangeKinds.map((kind) => kind.kind).sort());
    expect(new Set(registered).size).toBe(registered.length);
    for (const kind of staffOfflineEngine.changes) expect(changeKindOf(kind.kind)).toBeDefined();
  });

  it.each(staffOfflineEngine.changes.map((kind) => [kind.kind, kind] as const))(
    '%s: its request and its state read are routes of the server',
    (_, kind) => {
      expect(t.app.hasRoute({ method: kind.route.method, url: kind.route.path })).toBe(true);
      expect(t.app.hasRoute({ method: 'GET', url: kind.stateRoute.path })).toBe(true);
      // The request needs no parameter the state read lacks: both are filled from the same stored fields.
      expect(paramNames(kind.stateRoute.path)).toEqual(paramNames(kind.route.path));
    },
  );

  it.each(staffOfflineEngine.changes.map((kind) => [kind.kind, kind] as const))(
    '%s: a filled path is found by the server’s router with the parameters it was filled from',
    (_, kind) => {
      const names = paramNames(kind.route.path);
      const values = Object.fromEntries(names.map((name, index) => [name, `v${index}`]));
      const found = t.app.findRoute({ method: kind.route.method, url: fillPath(kind.route.path, values) });
      expect(found?.params).toEqual(values);
    },
  );
});
