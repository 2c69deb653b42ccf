/**
 * Stands for an object that a beforeAll hook makes: each property read goes to the current one,
 * and throws `message` while there is none (so it is used in tests and hooks only). Lets a helper
 * that registers the hooks hand back the object at once, instead of each file declaring a `let`.
 */
export function lateBound<T extends object>(current: () => T | undefined, message: string): T {
  const opened = (): T => {
    const value = current();
    if (!value) throw new Error(message);
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(opened(), key),
    set: (_, key, value) => Reflect.set(opened(), key, value),
  });
}
