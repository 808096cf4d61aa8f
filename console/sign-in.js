// The sign-in bar of a signed-out console (401): a token field that signs this browser in again
// without leaving the page, or word to reload for the browser's own prompt.
import { useState } from 'preact/hooks';
import { html } from './html.js';
/** @import { TargetedEvent } from 'preact' */
/** @import { SignIn } from './shapes.js' */

// The token goes once as ?access_token= to /healthz, whose answer sets the session cookie.
/** @param {{ offers: SignIn, signedIn: () => void }} props */
export function SignInBar({ offers, signedIn }) {
  const [token, setToken] = useState('');
  const [refused, setRefused] = useState(false);
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    const answer = await fetch(`/healthz?access_token=${encodeURIComponent(token)}`, { credentials: 'same-origin' }).catch(() => undefined);
    if (answer?.ok) {
      setToken('');
      signedIn();
    } else setRefused(true);
  };
  return html`<form class="sign-in" onSubmit=${submit}>
    <b>signed out</b>
    ${
      offers.token
        ? html`<label>token <input type="password" autocomplete="current-password" value=${token} onInput=${(/** @type {TargetedEvent<HTMLInputElement>} */ e) => setToken(e.currentTarget.value)} /></label>
      <button>sign in</button>${refused ? html`<span class="refused">that token was not accepted</span>` : ''}`
        : ''
    }
    ${offers.basic ? html`<span class="muted">${offers.token ? 'or reload' : 'reload'} the page to be asked for a user name and password</span>` : ''}
  </form>`;
}
