import { Form, Link } from "@remix-run/react";
import { Drawer } from "./Drawer";
import { Icon } from "./Icon";

export function ProfileDrawer({
  open,
  onClose,
  user,
  onAdminAccess,
}: {
  open: boolean;
  onClose: () => void;
  user: { name: string } | null;
  /** The dropdown icon: opens the admin PIN dialog. */
  onAdminAccess: () => void;
}) {
  const name = user?.name ?? "Guest";
  return (
    <Drawer id="profile-drawer" side="right" title="Profile" open={open} onClose={onClose}>
      <div className="profile">
        <span className="profile__avatar" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
        <p className="profile__name">{name}</p>
        <button type="button" className="icon-button profile__pin" aria-label="Admin access (PIN)" aria-haspopup="dialog" onClick={onAdminAccess}>
          <Icon name="chevronDown" />
        </button>
      </div>
      <ul className="drawer__links">
        <li>
          <Link to="/favorites" className="drawer__link" onClick={onClose}>
            <Icon name="heart" /> FAVORITE PODCAST
          </Link>
        </li>
        <li>
          {user ? (
            <Form method="post" action="/logout" onSubmit={onClose}>
              <button type="submit" className="drawer__link drawer__link--button">
                <Icon name="user" /> SIGN OUT
              </button>
            </Form>
          ) : (
            <Link to="/login" className="drawer__link" onClick={onClose}>
              <Icon name="user" /> REGISTER WITH GOOGLE
            </Link>
          )}
        </li>
        {user && (
          <li>
            {/* Ends the sessions on every device (a lost phone, a shared computer), not only this one. */}
            <Form method="post" action="/logout" onSubmit={onClose}>
              <input type="hidden" name="scope" value="everywhere" />
              <button type="submit" className="drawer__link drawer__link--button">
                <Icon name="user" /> SIGN OUT EVERYWHERE
              </button>
            </Form>
          </li>
        )}
      </ul>
    </Drawer>
  );
}
