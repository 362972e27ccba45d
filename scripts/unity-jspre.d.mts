// Types of unity-jspre.mjs, for the tests that check the generated GameCampaign.jspre.
export declare const UNITY_JSPRE: string;
export declare const JSPRE_TARGET: string;
export declare function renderJspre(root?: string): string;
