// Every unknown URL: a 404 rendered inside the site's layout by the root ErrorBoundary.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
