/**
 * The platform contract (platform-contract.ts) on every platform. To add one: one line below.
 */
import { cocosDevice, memoryDevice, reactNativeDevice } from './devices.js';
import { describePlatformContract } from './platform-contract.js';

describePlatformContract('memory', memoryDevice);
describePlatformContract('Cocos web', () => cocosDevice('web'));
describePlatformContract('Cocos native', () => cocosDevice('native'));
describePlatformContract('Cocos WeChat mini-game', () => cocosDevice('wechat'));
describePlatformContract('React Native, AsyncStorage 2.x', () => reactNativeDevice('v2'));
describePlatformContract('React Native, AsyncStorage 3.x', () => reactNativeDevice('v3'));
