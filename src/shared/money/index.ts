export * from './payments';
export * from './receipt';
export * from './refund';
export * from './tax';
export * from './types';
