using System.Collections.Generic;
using System.Threading.Tasks;

namespace GameCampaignSdk
{
    /// <summary>Campaign reads (Client API).</summary>
    public static class Campaigns
    {
        /// <summary>One campaign.</summary>
        /// <exception cref="GameCampaignException">NOT_FOUND for an unknown campaign; INVALID_RESPONSE (ResponseValidationError) for a success whose <c>data</c> is no object.</exception>
        public static Task<Campaign> Get(string campaignId)
        {
            return Bridge.Call("campaigns.get", Bridge.Args("campaignId", campaignId), Campaign.FromJson);
        }

        /// <summary>The creators taking part in a campaign.</summary>
        /// <exception cref="GameCampaignException">INVALID_RESPONSE (ResponseValidationError) for a success whose <c>data</c> is no list.</exception>
        public static Task<List<Creator>> ListCreators(string campaignId)
        {
            return Bridge.Call("campaigns.listCreators", Bridge.Args("campaignId", campaignId), ReadList.Of(Creator.FromJson));
        }
    }

    /// <summary>Creator reads and search (Client API).</summary>
    public static class Creators
    {
        /// <summary>One creator by key.</summary>
        /// <exception cref="GameCampaignException">NOT_FOUND for an unknown creator; INVALID_RESPONSE (ResponseValidationError) for a success whose <c>data</c> is no object.</exception>
        public static Task<Creator> Get(string creatorKey)
        {
            return Bridge.Call("creators.get", Bridge.Args("creatorKey", creatorKey), Creator.FromJson);
        }

        /// <summary>Creators whose name or key matches <paramref name="query"/> (1 to 10 characters).</summary>
        /// <exception cref="GameCampaignException">VALIDATION_ERROR for an empty or over-long query or a limit outside 1..100; INVALID_RESPONSE (ResponseValidationError) for a success whose <c>data</c> is no list.</exception>
        public static Task<List<Creator>> Search(string query, int? limit = null, bool? isTest = null)
        {
            return Bridge.Call("creators.search", Bridge.Args("query", query, "limit", limit, "isTest", isTest), ReadList.Of(Creator.FromJson));
        }
    }

    internal static class ReadList
    {
        public static System.Func<object, List<T>> Of<T>(System.Func<object, T> read)
        {
            return value =>
            {
                var items = value as List<object>;
                var result = new List<T>();
                if (items != null) foreach (var item in items) result.Add(read(item));
                return result;
            };
        }
    }
}
