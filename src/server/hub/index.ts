/**
 * The simulator's streaming hub: one {@link Hub} (subscriptions, authentication, heartbeats, fault injection)
 * served in two wire flavours — classic ASP.NET SignalR 1.5 and ASP.NET Core SignalR — by {@link attachHub}.
 */
export { Hub, type HubOptions, type PublishOptions, type HubConnectionHandle } from './hub.js';
export {
  HubMethodError,
  type HubBackend,
  type HubConnectionInfo,
  type HubFlavour,
  type HubSink,
  type SocketResponse,
} from './hub-types.js';
export { HubFaults, type HubFaultConfig } from './faults.js';
export { parseChannel, PRIVATE_CHANNELS, SUBACCOUNT_CHANNELS, type ChannelInfo, type ChannelScope } from './channels.js';
export { attachHub, startHubServer, type AttachedHub, type HubPaths, type HubServer, type HubServerOptions } from './attach-hub.js';
