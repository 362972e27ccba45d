// Checks each case of the JSON file named by args[0] with the managed tracker's generated rule tables and prints the
// details, as JSON: field-rules.test.ts holds them to what the TypeScript tracker's checks say of the same cases.
using System;
using System.Collections.Generic;
using System.IO;
using GameCampaignSdk;

public static class FieldRulesProbe
{
    public static void Main(string[] args)
    {
        var results = new List<object>();
        foreach (var node in (List<object>)Json.Parse(File.ReadAllText(args[0])))
        {
            var item = (Dictionary<string, object>)node;
            var fields = (Dictionary<string, object>)item["fields"];
            var table = (string)item["table"];
            if (table == "session")
            {
                results.Add(SessionRules.RuleBreaks(fields));
                continue;
            }
            var details = new List<object>();
            if (table == "init")
            {
                // What Init does with the tracker options: TrackerSettings.From, its VALIDATION_ERROR's details.
                try { TrackerSettings.From(fields); }
                catch (GameCampaignException error) { foreach (var detail in error.Details) details.Add(detail.ToJson()); }
            }
            else foreach (var detail in FieldRules.Check(RuleTables.StartFields, fields, "start")) details.Add(detail.ToJson());
            results.Add(details);
        }
        Console.WriteLine(Json.Serialize(results));
    }
}
