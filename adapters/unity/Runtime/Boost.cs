using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>Boosting a creator, through the game server's relay.</summary>
    public static class Boost
    {
        /// <summary>Boosts another creator. A <see cref="BoostChange.CallbackId"/> reaches the <c>sponsor.changed</c> webhook bound to the player by the relay (<c>relay:&lt;userId length&gt;:&lt;userId&gt;:&lt;callbackId&gt;</c>: <c>relayCallbackId</c> on the game server), not as sent.</summary>
        /// <exception cref="GameCampaignException">with <see cref="GameCampaignException.DaysRemaining"/> inside the 30-day cooldown; NOT_FOUND for an unknown creator.</exception>
        public static Task<BoostRecord> Change(BoostChange change)
        {
            return Bridge.Call("boost.change", change.ToJson(), BoostRecord.FromJson);
        }

        /// <summary>Boosts <paramref name="newCreatorKey"/> (in <paramref name="campaignId"/>, when given).</summary>
        public static Task<BoostRecord> Change(string newCreatorKey, string campaignId = null)
        {
            return Change(new BoostChange { NewCreatorKey = newCreatorKey, CampaignId = campaignId });
        }

        /// <summary>The player's current boost; null when they have none (the service's 404, with its error body).</summary>
        /// <exception cref="GameCampaignException">NOT_FOUND "HTTP 404" for a 404 without the spec's error body (a proxy's or CDN's page): not "no boost".</exception>
        public static Task<BoostRecord> Current()
        {
            return Bridge.Call("boost.current", null, BoostRecord.FromJson);
        }
    }
}
