/**
 * What a redundancy group needs of the hub's sharing of the site (site/site-share.ts
 * implements it): the group's side of that seam, so that the group imports nothing of site/.
 */
import type { Carried } from '../../serving.ts';

/** What the group needs of the hub's sharing (site/site-share.ts). */
export interface GroupSharing {
  /** The last values and records of the connections the active hub `owner` ran, as this standby has them. */
  carried(owner: string | undefined): Carried;
  /** The role or the active hub changed: mirror the active hub's connections, or stop mirroring them. */
  roleChanged(): void;
  /** The sessions of the other hubs of the group that are here: each renewal is bound to them (R-AV3). */
  sessions(): Record<string, string>;
  /** Hubs whose records say they are active in an epoch more than one step ahead, not confirmed by their renewals yet. */
  unconfirmedActive(): readonly string[];
}
