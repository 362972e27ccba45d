using System;
using UnityEngine;

namespace GameCampaignSdk
{
    /// <summary>
    /// Raises an event handler by handler: one that throws is logged with <see cref="Debug.LogException(Exception)"/>
    /// (as Unity logs an exception of a MonoBehaviour message) and the others still run. A multicast delegate
    /// invoked directly would stop at the first exception and throw it into the caller (the bridge callback).
    /// </summary>
    internal static class EventHandlers
    {
        /// <summary>Calls every handler of <paramref name="handlers"/> (null: none).</summary>
        internal static void Raise(Action handlers)
        {
            Each(handlers, handler => ((Action)handler)());
        }

        /// <summary>Calls every handler of <paramref name="handlers"/> with <paramref name="payload"/>.</summary>
        internal static void Raise<T>(Action<T> handlers, T payload)
        {
            Each(handlers, handler => ((Action<T>)handler)(payload));
        }

        /// <summary>Calls every handler of <paramref name="handlers"/> with two arguments.</summary>
        internal static void Raise<T1, T2>(Action<T1, T2> handlers, T1 first, T2 second)
        {
            Each(handlers, handler => ((Action<T1, T2>)handler)(first, second));
        }

        // A typed call per handler rather than Delegate.DynamicInvoke: no reflection (IL2CPP stripping, AOT).
        private static void Each(Delegate handlers, Action<Delegate> call)
        {
            if (handlers == null) return;
            foreach (var handler in handlers.GetInvocationList())
            {
                try { call(handler); }
                catch (Exception error) { Debug.LogException(error); }
            }
        }
    }
}
