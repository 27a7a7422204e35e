#!/usr/bin/env bash
# Builds every ```csharp block in README.md, docs/ and the package READMEs (src/*/README.md) as a program of its
# own against the libraries in src/, then runs the README's, which must exit 0 within 30 s. A block that is not a
# whole program (it continues an earlier one) is fenced ```csharp fragment and is skipped; GitHub still colours it.
# Compiler errors name the Markdown file and line. Exits non-zero when any block fails.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=artifacts/snippets
rm -rf "$out"
mkdir -p "$out"

projects=()
for doc in README.md docs/*.md docs/*/*.md src/*/README.md; do
    [ -f "$doc" ] || continue
    slug=$(tr -c 'A-Za-z0-9\n' '_' <<<"${doc%.md}")
    while read -r name; do
        projects+=("$name")
        cat >"$out/$name/$name.csproj" <<PROJECT
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <IsPackable>false</IsPackable>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Microsoft.Extensions.Hosting" />
    <ProjectReference Include="$root/src/Berth/Berth.csproj" />
    <ProjectReference Include="$root/src/Berth.Generators/Berth.Generators.csproj" OutputItemType="Analyzer" ReferenceOutputAssembly="false" />
    <ProjectReference Include="$root/src/Berth.Hosting/Berth.Hosting.csproj" />
    <ProjectReference Include="$root/src/Berth.Zmq/Berth.Zmq.csproj" />
  </ItemGroup>
</Project>
PROJECT
    done < <(awk -v out="$out" -v slug="$slug" -v doc="$root/$doc" '
        /^```csharp[ \t]*$/ {
            n++; name = slug "_" n; system("mkdir -p " out "/" name)
            file = out "/" name "/Program.cs"
            printf "#line %d \"%s\"\n", NR + 1, doc > file
            inside = 1; print name; next
        }
        /^```/ && inside { inside = 0; close(file); next }
        inside { print > file }
    ' "$doc")
done

((${#projects[@]})) || { echo "snippets: no csharp blocks found"; exit 1; }
{
    echo "<Solution>"
    for name in "${projects[@]}"; do echo "  <Project Path=\"$name/$name.csproj\" />"; done
    echo "</Solution>"
} >"$out/Snippets.slnx"

echo "snippets: building ${#projects[@]} blocks"
dotnet build "$out/Snippets.slnx" -c Release -nologo -v quiet || { echo "snippets: a block does not compile"; exit 1; }

status=0
for name in "${projects[@]}"; do
    [[ $name == README_* ]] || continue
    echo "snippets: running $name"
    if ! timeout 30 dotnet "$out/$name/bin/Release/net10.0/$name.dll"; then
        echo "snippets: $name failed or did not exit within 30 s"
        status=1
    fi
done
exit $status
