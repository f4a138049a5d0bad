import { useLocation } from "@remix-run/react";
import { Message } from "~/i18n/Message";

/**
 * The spec's "Registration Success!" message, shown once a new listener is back, signed in, on the
 * page they registered from (app/routes/register.tsx adds `registered=1` to that address).
 */
export function RegisteredNotice({ signedIn }: { signedIn: boolean }) {
  const { search } = useLocation();
  if (!signedIn || !new URLSearchParams(search).has("registered")) return null;
  return (
    <div className="container">
      <p className="form-banner form-banner--success registered-banner" role="status">
        <Message id="account.registered" components={{ 0: <strong /> }} />
      </p>
    </div>
  );
}
