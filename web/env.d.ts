// esbuild bundles the stylesheet imported by main.tsx into its own hashed file.
declare module '*.css';
