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
            var rules = table == "init" ? RuleTables.InitSessionFields : RuleTables.StartFields;
            foreach (var detail in FieldRules.Check(rules, fields, table == "init" ? "options" : "start")) details.Add(detail.ToJson());
            results.Add(details);
        }
        Console.WriteLine(Json.Serialize(results));
    }
}
