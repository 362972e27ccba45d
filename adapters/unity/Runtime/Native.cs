using System;
#if UNITY_WEBGL && !UNITY_EDITOR
using System.Runtime.InteropServices;
#endif

namespace GameCampaignSdk
{
    /// <summary>The delegate the JavaScript side calls with one JSON message (a result or an event).</summary>
    public delegate void MessageCallback(string json);

    /// <summary>The two calls into JavaScript; replaceable so the bridge can run without a browser.</summary>
    internal interface INative
    {
        /// <summary>Registers the one callback every answer and event comes back through.</summary>
        void Register(MessageCallback callback);
        /// <summary>Starts request <paramref name="requestId"/>: <paramref name="method"/> with JSON arguments.</summary>
        void Call(int requestId, string method, string argsJson);
    }

#if UNITY_WEBGL && !UNITY_EDITOR
    /// <summary>The WebGL player: Runtime/Plugins/WebGL/GameCampaign.jslib.</summary>
    internal sealed class WebGlNative : INative
    {
        [DllImport("__Internal")] private static extern void GameCampaign_Register(MessageCallback callback);
        [DllImport("__Internal")] private static extern void GameCampaign_Call(int requestId, string method, string argsJson);

        public void Register(MessageCallback callback) { GameCampaign_Register(callback); }
        public void Call(int requestId, string method, string argsJson) { GameCampaign_Call(requestId, method, argsJson); }
    }
#endif

    internal static class NativeDefault
    {
        /// <summary>True in a WebGL player, where the JavaScript SDK runs; elsewhere the C# implementation does.</summary>
        public static bool WebGl
        {
            get
            {
#if UNITY_WEBGL && !UNITY_EDITOR
                return true;
#else
                return false;
#endif
            }
        }

        public static INative Create()
        {
#if UNITY_WEBGL && !UNITY_EDITOR
            return new WebGlNative();
#else
            return new ManagedNative();
#endif
        }
    }
}
