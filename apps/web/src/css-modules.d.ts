// Stylesheets a component imports (Vite bundles them into the page's CSS).
declare module '*.css';
