// A page's token: in the URL's fragment (`/seat#<token>`), which never reaches a server or its
// logs. Its payload (base64url JSON {t: table, s: seat, r: role, e: expiry}) names the table
// and the seat; the signature is the server's to check, on the socket.

export function tokenFromHash(hash = window.location.hash) {
  const token = decodeURIComponent(hash.replace(/^#/, "")).trim();
  return token || null;
}

export function claimsOf(token) {
  const parts = (token || "").split(".");
  if (parts.length !== 3 || parts[0] !== "v1") return null;
  try {
    const b64 = parts[1].replace(/-/g, "+").replace(/_/g, "/");
    const json = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
    const claims = JSON.parse(json);
    if (typeof claims !== "object" || claims === null) return null;
    return { table: claims.t, seat: claims.s, role: claims.r, expires: claims.e };
  } catch {
    return null;
  }
}
