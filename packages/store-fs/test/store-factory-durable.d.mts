export * from './store-factory.mjs';
