import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateStore } from "../../lib/state/store.js";
/** A fresh state folder for one spec. */
export const stateFolder = () => mkdtemp(join(tmpdir(), 'patchbay-state-'));
/** A real store in a fresh folder (or `folder`), holding `values`, closed when the spec ends. */
export async function storeWith(t, values = {}, folder) {
    const opened = StateStore.open(folder ?? (await stateFolder()));
    if (!opened.ok)
        throw opened.error;
    t.teardown(() => opened.value.close());
    for (const [address, value] of Object.entries(values))
        opened.value.setValue(address, value);
    await opened.value.settled();
    return opened.value;
}
