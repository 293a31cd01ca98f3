import type { BrowserContext, Page } from 'playwright-core';

export declare const BUNDLE: string;
export declare const CHROMIUM: string;
export declare function servePage(options?: { proxy?: string; files?: Record<string, string> }): Promise<{ url: string; close(): Promise<void> }>;
export declare function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }>;
export declare function openPage(context: BrowserContext, url: string, errors?: Error[]): Promise<Page>;
export declare function reloadPage(page: Page): Promise<void>;
