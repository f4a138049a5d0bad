// The same components for the server's render, where they are never loaded lazily (SiteHeader):
// a `.server` module is empty in the browser bundle, so this adds nothing to it.
export * from "./header-dialogs";
