// Files imported for their URL (the Remix compiler copies them to /build/_assets with a hash).
/// <reference types="@remix-run/dev" />
