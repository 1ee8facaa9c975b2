export { BoxOwnership, type RemoteOwner } from './box-ownership';
export { ClusterModule } from './cluster.module';
export { HEARTBEAT_MS, InstanceRegistry, LEASE_MS } from './instance-registry';
export { FORWARDED_HEADER, OwnerRpc } from './owner-rpc';
