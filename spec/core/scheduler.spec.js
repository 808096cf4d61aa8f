import test from 'ava';
import { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { after, every } from "../../lib/core/scheduler.js";
import { VirtualClock } from "../helpers/virtual-time.js";
const testScheduler = (t) => new TestScheduler((actual, expected) => t.deepEqual(actual, expected));
test('after runs its work once, when due', (t) => {
    const scheduler = testScheduler(t);
    scheduler.run(({ expectObservable }) => {
        const done$ = new Observable((subscriber) => after(scheduler, 5, () => subscriber.next('x')));
        expectObservable(done$, '^ 20ms !').toBe('5ms x');
    });
});
test('every fires at start + n × interval', (t) => {
    const scheduler = testScheduler(t);
    scheduler.run(({ expectObservable }) => {
        const fires$ = new Observable((subscriber) => every(scheduler, 10, (n) => subscriber.next(n)));
        expectObservable(fires$, '^ 35ms !').toBe('10ms a 9ms b 9ms c', { a: 1, b: 2, c: 3 });
    });
});
test('a late run does not shift the runs after it', (t) => {
    const clock = new VirtualClock();
    const times = [];
    const runs = every(clock.scheduler, 10, () => {
        times.push(clock.now);
        if (times.length === 1)
            clock.scheduler.frame += 3; // the first run was 3 ms late
    });
    clock.advanceBy(35);
    runs.unsubscribe();
    t.deepEqual(times, [10, 20, 30]);
});
test('runs missed while the process was blocked are skipped, not fired in a burst', (t) => {
    const clock = new VirtualClock();
    const fires = [];
    const runs = every(clock.scheduler, 10, (n) => {
        fires.push([clock.now, n]);
        if (n === 1)
            clock.scheduler.frame += 35; // blocked for 35 ms: slots 2, 3 and 4 pass
    });
    clock.advanceBy(65);
    runs.unsubscribe();
    t.deepEqual(fires, [
        [10, 1],
        [50, 5],
        [60, 6],
    ]);
});
test('unsubscribing stops the runs', (t) => {
    const clock = new VirtualClock();
    let count = 0;
    const runs = every(clock.scheduler, 10, () => count++);
    clock.advanceBy(25);
    runs.unsubscribe();
    clock.advanceBy(100);
    t.is(count, 2);
});
