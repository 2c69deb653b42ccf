// `import src from "~/client/x.ts?script"`: the built script's URL (the client-scripts plugin in vite.config.ts).
declare module "*?script" {
  const src: string;
  export default src;
}
