/** Waits until `check` holds, polling every 20 ms; throws naming `what` after `ms`. */
export async function eventually(check, what, ms = 10_000) {
    const deadline = Date.now() + ms;
    while (!(await check())) {
        if (Date.now() > deadline)
            throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
}
