/** `GET /api/auth/me`: who is signed in. */
export interface SignedIn {
  username: string;
}

/** `POST /api/auth/sign-in`: the person, and the token a program sends as `Bearer`. */
export interface SignInAnswer extends SignedIn {
  token: string;
}
