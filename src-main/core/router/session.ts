// The active profile at run time: its gateway client and its watcher. Replaced on profile switch.
import type { Profile } from '../../contract/index.js';
import type { GatewayClient } from '../../gateway/index.js';
import type { Watcher } from '../watcher/index.js';

export interface Session {
  profile: Profile;
  client: GatewayClient;
  watcher: Watcher;
}
