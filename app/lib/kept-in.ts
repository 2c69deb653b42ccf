/**
 * `map`'s value for `key`, made by `make` the first time and kept: at most `max` keys, the oldest
 * out first. For memos of derived values (HTML of a text, a stylesheet's cut, counts) whose key
 * says everything the value depends on. Values are never undefined.
 */
export function keptIn<K, V>(map: Map<K, V>, key: K, max: number, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const value = make();
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
  return value;
}
