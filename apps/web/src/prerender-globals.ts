// What the app's modules touch when they load, for the build's prerender in Node (imported
// first by src/prerender.tsx): an empty local storage, which is what a first visit has.
const items = new Map<string, string>();
const storage: Storage = {
  get length() {
    return items.size;
  },
  clear: () => items.clear(),
  getItem: (key) => items.get(key) ?? null,
  key: (index) => [...items.keys()][index] ?? null,
  removeItem: (key) => void items.delete(key),
  setItem: (key, value) => void items.set(key, String(value)),
};
globalThis.localStorage ??= storage;
