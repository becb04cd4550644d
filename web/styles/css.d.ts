// Stylesheets are imported for their side effect; Bun bundles them into one CSS file linked from index.html.
declare module '*.css';
