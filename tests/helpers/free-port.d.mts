/** A port on 127.0.0.1 that nobody listened on a moment ago. */
export function freePort(): Promise<number>;
