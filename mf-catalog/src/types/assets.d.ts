/** Pictures imported by a component are emitted by webpack (and by Vite in tests) and answered as their URL. */
declare module '*.svg' {
  const url: string;
  export default url;
}
