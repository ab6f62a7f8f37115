; ModuleID = 'rowsum.tess'
source_filename = "rowsum.tess"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define ptx_kernel void @rowsum_BM16_BN256(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias writeonly captures(none) %s, i32 %M, i32 %N) local_unnamed_addr #0 {
entry:
  %0 = tail call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %0, 31
  %warp = lshr i32 %0, 5
  %1 = sext i32 %N to i64
  %2 = shl nuw nsw i32 %lane, 2
  %3 = icmp eq i32 %lane, 0
  %4 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = shl i32 %4, 4
  %6 = sext i32 %5 to i64
  %7 = mul nsw i64 %1, %6
  %8 = sub i32 %M, %5
  %9 = add i32 %N, 255
  %10 = sdiv i32 %9, 256
  %11 = zext nneg i32 %warp to i64
  %12 = mul nsw i64 %1, %11
  %13 = zext nneg i32 %2 to i64
  %14 = getelementptr float, ptr addrspace(1) %x, i64 %7
  %15 = getelementptr float, ptr addrspace(1) %14, i64 %12
  %16 = getelementptr float, ptr addrspace(1) %15, i64 %13
  %17 = ptrtoint ptr addrspace(1) %14 to i64
  %18 = shl nsw i64 %1, 2
  %19 = or i64 %18, %17
  %20 = and i64 %19, 15
  %21 = icmp eq i64 %20, 0
  %22 = or disjoint i32 %warp, 12
  %23 = or disjoint i32 %2, 131
  %24 = icmp slt i32 %warp, %8
  %25 = icmp slt i32 %22, %8
  %26 = icmp slt i32 %23, %N
  %27 = and i1 %26, %21
  %28 = and i1 %25, %27
  br i1 %28, label %ld.tile, label %ld.edge

ld.tile:                                          ; preds = %entry
  %29 = load float, ptr addrspace(1) %16, align 16
  %30 = getelementptr inbounds nuw i8, ptr addrspace(1) %16, i64 4
  %31 = load float, ptr addrspace(1) %30, align 4
  %32 = getelementptr inbounds nuw i8, ptr addrspace(1) %16, i64 8
  %33 = load float, ptr addrspace(1) %32, align 8
  %34 = getelementptr inbounds nuw i8, ptr addrspace(1) %16, i64 12
  %35 = load float, ptr addrspace(1) %34, align 4
  %36 = getelementptr i8, ptr addrspace(1) %16, i64 512
  %37 = load float, ptr addrspace(1) %36, align 16
  %38 = getelementptr i8, ptr addrspace(1) %16, i64 516
  %39 = load float, ptr addrspace(1) %38, align 4
  %40 = getelementptr i8, ptr addrspace(1) %16, i64 520
  %41 = load float, ptr addrspace(1) %40, align 8
  %42 = getelementptr i8, ptr addrspace(1) %16, i64 524
  %43 = load float, ptr addrspace(1) %42, align 4
  %44 = getelementptr float, ptr addrspace(1) %16, i64 %18
  %45 = load float, ptr addrspace(1) %44, align 16
  %46 = getelementptr inbounds nuw i8, ptr addrspace(1) %44, i64 4
  %47 = load float, ptr addrspace(1) %46, align 4
  %48 = getelementptr inbounds nuw i8, ptr addrspace(1) %44, i64 8
  %49 = load float, ptr addrspace(1) %48, align 8
  %50 = getelementptr inbounds nuw i8, ptr addrspace(1) %44, i64 12
  %51 = load float, ptr addrspace(1) %50, align 4
  %52 = getelementptr i8, ptr addrspace(1) %44, i64 512
  %53 = load float, ptr addrspace(1) %52, align 16
  %54 = getelementptr i8, ptr addrspace(1) %44, i64 516
  %55 = load float, ptr addrspace(1) %54, align 4
  %56 = getelementptr i8, ptr addrspace(1) %44, i64 520
  %57 = load float, ptr addrspace(1) %56, align 8
  %58 = getelementptr i8, ptr addrspace(1) %44, i64 524
  %59 = load float, ptr addrspace(1) %58, align 4
  %.idx2 = shl nsw i64 %1, 5
  %60 = getelementptr i8, ptr addrspace(1) %16, i64 %.idx2
  %61 = load float, ptr addrspace(1) %60, align 16
  %62 = getelementptr inbounds nuw i8, ptr addrspace(1) %60, i64 4
  %63 = load float, ptr addrspace(1) %62, align 4
  %64 = getelementptr inbounds nuw i8, ptr addrspace(1) %60, i64 8
  %65 = load float, ptr addrspace(1) %64, align 8
  %66 = getelementptr inbounds nuw i8, ptr addrspace(1) %60, i64 12
  %67 = load float, ptr addrspace(1) %66, align 4
  %68 = getelementptr i8, ptr addrspace(1) %60, i64 512
  %69 = load float, ptr addrspace(1) %68, align 16
  %70 = getelementptr i8, ptr addrspace(1) %60, i64 516
  %71 = load float, ptr addrspace(1) %70, align 4
  %72 = getelementptr i8, ptr addrspace(1) %60, i64 520
  %73 = load float, ptr addrspace(1) %72, align 8
  %74 = getelementptr i8, ptr addrspace(1) %60, i64 524
  %75 = load float, ptr addrspace(1) %74, align 4
  %.idx3 = mul nsw i64 %1, 48
  %76 = getelementptr i8, ptr addrspace(1) %16, i64 %.idx3
  %77 = load float, ptr addrspace(1) %76, align 16
  %78 = getelementptr inbounds nuw i8, ptr addrspace(1) %76, i64 4
  %79 = load float, ptr addrspace(1) %78, align 4
  %80 = getelementptr inbounds nuw i8, ptr addrspace(1) %76, i64 8
  %81 = load float, ptr addrspace(1) %80, align 8
  %82 = getelementptr inbounds nuw i8, ptr addrspace(1) %76, i64 12
  %83 = load float, ptr addrspace(1) %82, align 4
  %84 = getelementptr i8, ptr addrspace(1) %76, i64 512
  %85 = load float, ptr addrspace(1) %84, align 16
  %86 = getelementptr i8, ptr addrspace(1) %76, i64 516
  %87 = load float, ptr addrspace(1) %86, align 4
  %88 = getelementptr i8, ptr addrspace(1) %76, i64 520
  %89 = load float, ptr addrspace(1) %88, align 8
  %90 = getelementptr i8, ptr addrspace(1) %76, i64 524
  %91 = load float, ptr addrspace(1) %90, align 4
  br label %ld.tile.done

ld.edge:                                          ; preds = %entry
  %92 = icmp slt i32 %2, %N
  %93 = and i1 %24, %92
  %94 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %16, i1 %93, i32 0) #3
  %95 = bitcast i32 %94 to float
  %96 = or disjoint i32 %2, 1
  %97 = icmp slt i32 %96, %N
  %98 = and i1 %24, %97
  %99 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %16, i1 %98, i32 0) #3
  %100 = bitcast i32 %99 to float
  %101 = or disjoint i32 %2, 2
  %102 = icmp slt i32 %101, %N
  %103 = and i1 %24, %102
  %104 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %16, i1 %103, i32 0) #3
  %105 = bitcast i32 %104 to float
  %106 = or disjoint i32 %2, 3
  %107 = icmp slt i32 %106, %N
  %108 = and i1 %24, %107
  %109 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %16, i1 %108, i32 0) #3
  %110 = bitcast i32 %109 to float
  %111 = or disjoint i32 %2, 128
  %112 = icmp slt i32 %111, %N
  %113 = and i1 %24, %112
  %114 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %16, i1 %113, i32 0) #3
  %115 = bitcast i32 %114 to float
  %116 = or disjoint i32 %2, 129
  %117 = icmp slt i32 %116, %N
  %118 = and i1 %24, %117
  %119 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %16, i1 %118, i32 0) #3
  %120 = bitcast i32 %119 to float
  %121 = or disjoint i32 %2, 130
  %122 = icmp slt i32 %121, %N
  %123 = and i1 %24, %122
  %124 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %16, i1 %123, i32 0) #3
  %125 = bitcast i32 %124 to float
  %126 = and i1 %24, %26
  %127 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %16, i1 %126, i32 0) #3
  %128 = bitcast i32 %127 to float
  %129 = or disjoint i32 %warp, 4
  %130 = getelementptr float, ptr addrspace(1) %16, i64 %18
  %131 = icmp slt i32 %129, %8
  %132 = and i1 %131, %92
  %133 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %130, i1 %132, i32 0) #3
  %134 = bitcast i32 %133 to float
  %135 = and i1 %131, %97
  %136 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %130, i1 %135, i32 0) #3
  %137 = bitcast i32 %136 to float
  %138 = and i1 %131, %102
  %139 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %130, i1 %138, i32 0) #3
  %140 = bitcast i32 %139 to float
  %141 = and i1 %131, %107
  %142 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %130, i1 %141, i32 0) #3
  %143 = bitcast i32 %142 to float
  %144 = and i1 %131, %112
  %145 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %130, i1 %144, i32 0) #3
  %146 = bitcast i32 %145 to float
  %147 = and i1 %131, %117
  %148 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %130, i1 %147, i32 0) #3
  %149 = bitcast i32 %148 to float
  %150 = and i1 %131, %122
  %151 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %130, i1 %150, i32 0) #3
  %152 = bitcast i32 %151 to float
  %153 = and i1 %131, %26
  %154 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %130, i1 %153, i32 0) #3
  %155 = bitcast i32 %154 to float
  %156 = or disjoint i32 %warp, 8
  %.idx = shl nsw i64 %1, 5
  %157 = getelementptr i8, ptr addrspace(1) %16, i64 %.idx
  %158 = icmp slt i32 %156, %8
  %159 = and i1 %158, %92
  %160 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %157, i1 %159, i32 0) #3
  %161 = bitcast i32 %160 to float
  %162 = and i1 %158, %97
  %163 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %157, i1 %162, i32 0) #3
  %164 = bitcast i32 %163 to float
  %165 = and i1 %158, %102
  %166 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %157, i1 %165, i32 0) #3
  %167 = bitcast i32 %166 to float
  %168 = and i1 %158, %107
  %169 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %157, i1 %168, i32 0) #3
  %170 = bitcast i32 %169 to float
  %171 = and i1 %158, %112
  %172 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %157, i1 %171, i32 0) #3
  %173 = bitcast i32 %172 to float
  %174 = and i1 %158, %117
  %175 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %157, i1 %174, i32 0) #3
  %176 = bitcast i32 %175 to float
  %177 = and i1 %158, %122
  %178 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %157, i1 %177, i32 0) #3
  %179 = bitcast i32 %178 to float
  %180 = and i1 %158, %26
  %181 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %157, i1 %180, i32 0) #3
  %182 = bitcast i32 %181 to float
  %.idx1 = mul nsw i64 %1, 48
  %183 = getelementptr i8, ptr addrspace(1) %16, i64 %.idx1
  %184 = and i1 %25, %92
  %185 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %184, i32 0) #3
  %186 = bitcast i32 %185 to float
  %187 = and i1 %25, %97
  %188 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %187, i32 0) #3
  %189 = bitcast i32 %188 to float
  %190 = and i1 %25, %102
  %191 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %190, i32 0) #3
  %192 = bitcast i32 %191 to float
  %193 = and i1 %25, %107
  %194 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %193, i32 0) #3
  %195 = bitcast i32 %194 to float
  %196 = and i1 %25, %112
  %197 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %196, i32 0) #3
  %198 = bitcast i32 %197 to float
  %199 = and i1 %25, %117
  %200 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %199, i32 0) #3
  %201 = bitcast i32 %200 to float
  %202 = and i1 %25, %122
  %203 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %202, i32 0) #3
  %204 = bitcast i32 %203 to float
  %205 = and i1 %25, %26
  %206 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %183, i1 %205, i32 0) #3
  %207 = bitcast i32 %206 to float
  br label %ld.tile.done

ld.tile.done:                                     ; preds = %ld.edge, %ld.tile
  %208 = phi float [ %29, %ld.tile ], [ %95, %ld.edge ]
  %209 = phi float [ %31, %ld.tile ], [ %100, %ld.edge ]
  %210 = phi float [ %33, %ld.tile ], [ %105, %ld.edge ]
  %211 = phi float [ %35, %ld.tile ], [ %110, %ld.edge ]
  %212 = phi float [ %37, %ld.tile ], [ %115, %ld.edge ]
  %213 = phi float [ %39, %ld.tile ], [ %120, %ld.edge ]
  %214 = phi float [ %41, %ld.tile ], [ %125, %ld.edge ]
  %215 = phi float [ %43, %ld.tile ], [ %128, %ld.edge ]
  %216 = phi float [ %45, %ld.tile ], [ %134, %ld.edge ]
  %217 = phi float [ %47, %ld.tile ], [ %137, %ld.edge ]
  %218 = phi float [ %49, %ld.tile ], [ %140, %ld.edge ]
  %219 = phi float [ %51, %ld.tile ], [ %143, %ld.edge ]
  %220 = phi float [ %53, %ld.tile ], [ %146, %ld.edge ]
  %221 = phi float [ %55, %ld.tile ], [ %149, %ld.edge ]
  %222 = phi float [ %57, %ld.tile ], [ %152, %ld.edge ]
  %223 = phi float [ %59, %ld.tile ], [ %155, %ld.edge ]
  %224 = phi float [ %61, %ld.tile ], [ %161, %ld.edge ]
  %225 = phi float [ %63, %ld.tile ], [ %164, %ld.edge ]
  %226 = phi float [ %65, %ld.tile ], [ %167, %ld.edge ]
  %227 = phi float [ %67, %ld.tile ], [ %170, %ld.edge ]
  %228 = phi float [ %69, %ld.tile ], [ %173, %ld.edge ]
  %229 = phi float [ %71, %ld.tile ], [ %176, %ld.edge ]
  %230 = phi float [ %73, %ld.tile ], [ %179, %ld.edge ]
  %231 = phi float [ %75, %ld.tile ], [ %182, %ld.edge ]
  %232 = phi float [ %77, %ld.tile ], [ %186, %ld.edge ]
  %233 = phi float [ %79, %ld.tile ], [ %189, %ld.edge ]
  %234 = phi float [ %81, %ld.tile ], [ %192, %ld.edge ]
  %235 = phi float [ %83, %ld.tile ], [ %195, %ld.edge ]
  %236 = phi float [ %85, %ld.tile ], [ %198, %ld.edge ]
  %237 = phi float [ %87, %ld.tile ], [ %201, %ld.edge ]
  %238 = phi float [ %89, %ld.tile ], [ %204, %ld.edge ]
  %239 = phi float [ %91, %ld.tile ], [ %207, %ld.edge ]
  %240 = icmp sgt i32 %9, 255
  br i1 %240, label %for.body.lr.ph, label %for.exit

for.body.lr.ph:                                   ; preds = %ld.tile.done
  %241 = or disjoint i32 %2, 1
  %242 = or disjoint i32 %2, 2
  %243 = or disjoint i32 %2, 3
  %244 = or disjoint i32 %2, 128
  %245 = or disjoint i32 %2, 129
  %246 = or disjoint i32 %2, 130
  %247 = or disjoint i32 %warp, 4
  %248 = icmp slt i32 %247, %8
  %249 = or disjoint i32 %warp, 8
  %.idx4 = shl nuw nsw i64 %1, 5
  %250 = icmp slt i32 %249, %8
  %.idx5 = mul nuw nsw i64 %1, 48
  br label %for.body

for.body:                                         ; preds = %for.body.lr.ph, %ld.tile.done3
  %251 = phi float [ %239, %for.body.lr.ph ], [ %504, %ld.tile.done3 ]
  %252 = phi float [ %238, %for.body.lr.ph ], [ %503, %ld.tile.done3 ]
  %253 = phi float [ %237, %for.body.lr.ph ], [ %502, %ld.tile.done3 ]
  %254 = phi float [ %236, %for.body.lr.ph ], [ %501, %ld.tile.done3 ]
  %255 = phi float [ %235, %for.body.lr.ph ], [ %500, %ld.tile.done3 ]
  %256 = phi float [ %234, %for.body.lr.ph ], [ %499, %ld.tile.done3 ]
  %257 = phi float [ %233, %for.body.lr.ph ], [ %498, %ld.tile.done3 ]
  %258 = phi float [ %232, %for.body.lr.ph ], [ %497, %ld.tile.done3 ]
  %259 = phi float [ %231, %for.body.lr.ph ], [ %496, %ld.tile.done3 ]
  %260 = phi float [ %230, %for.body.lr.ph ], [ %495, %ld.tile.done3 ]
  %261 = phi float [ %229, %for.body.lr.ph ], [ %494, %ld.tile.done3 ]
  %262 = phi float [ %228, %for.body.lr.ph ], [ %493, %ld.tile.done3 ]
  %263 = phi float [ %227, %for.body.lr.ph ], [ %492, %ld.tile.done3 ]
  %264 = phi float [ %226, %for.body.lr.ph ], [ %491, %ld.tile.done3 ]
  %265 = phi float [ %225, %for.body.lr.ph ], [ %490, %ld.tile.done3 ]
  %266 = phi float [ %224, %for.body.lr.ph ], [ %489, %ld.tile.done3 ]
  %267 = phi float [ %223, %for.body.lr.ph ], [ %488, %ld.tile.done3 ]
  %268 = phi float [ %222, %for.body.lr.ph ], [ %487, %ld.tile.done3 ]
  %269 = phi float [ %221, %for.body.lr.ph ], [ %486, %ld.tile.done3 ]
  %270 = phi float [ %220, %for.body.lr.ph ], [ %485, %ld.tile.done3 ]
  %271 = phi float [ %219, %for.body.lr.ph ], [ %484, %ld.tile.done3 ]
  %272 = phi float [ %218, %for.body.lr.ph ], [ %483, %ld.tile.done3 ]
  %273 = phi float [ %217, %for.body.lr.ph ], [ %482, %ld.tile.done3 ]
  %274 = phi float [ %216, %for.body.lr.ph ], [ %481, %ld.tile.done3 ]
  %275 = phi float [ %215, %for.body.lr.ph ], [ %480, %ld.tile.done3 ]
  %276 = phi float [ %214, %for.body.lr.ph ], [ %479, %ld.tile.done3 ]
  %277 = phi float [ %213, %for.body.lr.ph ], [ %478, %ld.tile.done3 ]
  %278 = phi float [ %212, %for.body.lr.ph ], [ %477, %ld.tile.done3 ]
  %279 = phi float [ %211, %for.body.lr.ph ], [ %476, %ld.tile.done3 ]
  %280 = phi float [ %210, %for.body.lr.ph ], [ %475, %ld.tile.done3 ]
  %281 = phi float [ %209, %for.body.lr.ph ], [ %474, %ld.tile.done3 ]
  %282 = phi float [ %208, %for.body.lr.ph ], [ %473, %ld.tile.done3 ]
  %283 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %616, %ld.tile.done3 ]
  %284 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %615, %ld.tile.done3 ]
  %285 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %614, %ld.tile.done3 ]
  %286 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %613, %ld.tile.done3 ]
  %iv11 = phi i32 [ 0, %for.body.lr.ph ], [ %287, %ld.tile.done3 ]
  %287 = add nuw nsw i32 %iv11, 1
  %288 = shl i32 %287, 8
  %289 = sext i32 %288 to i64
  %290 = sub i32 %N, %288
  %291 = getelementptr float, ptr addrspace(1) %14, i64 %289
  %292 = getelementptr float, ptr addrspace(1) %291, i64 %12
  %293 = getelementptr float, ptr addrspace(1) %292, i64 %13
  %294 = ptrtoint ptr addrspace(1) %291 to i64
  %295 = or i64 %18, %294
  %296 = and i64 %295, 15
  %297 = icmp eq i64 %296, 0
  %298 = icmp slt i32 %23, %290
  %299 = and i1 %298, %297
  %300 = and i1 %25, %299
  br i1 %300, label %ld.tile1, label %ld.edge2

for.exit:                                         ; preds = %ld.tile.done3, %ld.tile.done
  %.lcssa10 = phi float [ 0.000000e+00, %ld.tile.done ], [ %613, %ld.tile.done3 ]
  %.lcssa9 = phi float [ 0.000000e+00, %ld.tile.done ], [ %614, %ld.tile.done3 ]
  %.lcssa8 = phi float [ 0.000000e+00, %ld.tile.done ], [ %615, %ld.tile.done3 ]
  %.lcssa = phi float [ 0.000000e+00, %ld.tile.done ], [ %616, %ld.tile.done3 ]
  %301 = getelementptr float, ptr addrspace(1) %s, i64 %6
  %302 = getelementptr float, ptr addrspace(1) %301, i64 %11
  %303 = and i1 %3, %24
  br i1 %303, label %st.in, label %st.end

ld.tile1:                                         ; preds = %for.body
  %304 = load float, ptr addrspace(1) %293, align 16
  %305 = getelementptr inbounds nuw i8, ptr addrspace(1) %293, i64 4
  %306 = load float, ptr addrspace(1) %305, align 4
  %307 = getelementptr inbounds nuw i8, ptr addrspace(1) %293, i64 8
  %308 = load float, ptr addrspace(1) %307, align 8
  %309 = getelementptr inbounds nuw i8, ptr addrspace(1) %293, i64 12
  %310 = load float, ptr addrspace(1) %309, align 4
  %311 = getelementptr i8, ptr addrspace(1) %293, i64 512
  %312 = load float, ptr addrspace(1) %311, align 16
  %313 = getelementptr i8, ptr addrspace(1) %293, i64 516
  %314 = load float, ptr addrspace(1) %313, align 4
  %315 = getelementptr i8, ptr addrspace(1) %293, i64 520
  %316 = load float, ptr addrspace(1) %315, align 8
  %317 = getelementptr i8, ptr addrspace(1) %293, i64 524
  %318 = load float, ptr addrspace(1) %317, align 4
  %319 = getelementptr float, ptr addrspace(1) %293, i64 %18
  %320 = load float, ptr addrspace(1) %319, align 16
  %321 = getelementptr inbounds nuw i8, ptr addrspace(1) %319, i64 4
  %322 = load float, ptr addrspace(1) %321, align 4
  %323 = getelementptr inbounds nuw i8, ptr addrspace(1) %319, i64 8
  %324 = load float, ptr addrspace(1) %323, align 8
  %325 = getelementptr inbounds nuw i8, ptr addrspace(1) %319, i64 12
  %326 = load float, ptr addrspace(1) %325, align 4
  %327 = getelementptr i8, ptr addrspace(1) %319, i64 512
  %328 = load float, ptr addrspace(1) %327, align 16
  %329 = getelementptr i8, ptr addrspace(1) %319, i64 516
  %330 = load float, ptr addrspace(1) %329, align 4
  %331 = getelementptr i8, ptr addrspace(1) %319, i64 520
  %332 = load float, ptr addrspace(1) %331, align 8
  %333 = getelementptr i8, ptr addrspace(1) %319, i64 524
  %334 = load float, ptr addrspace(1) %333, align 4
  %335 = getelementptr i8, ptr addrspace(1) %293, i64 %.idx4
  %336 = load float, ptr addrspace(1) %335, align 16
  %337 = getelementptr inbounds nuw i8, ptr addrspace(1) %335, i64 4
  %338 = load float, ptr addrspace(1) %337, align 4
  %339 = getelementptr inbounds nuw i8, ptr addrspace(1) %335, i64 8
  %340 = load float, ptr addrspace(1) %339, align 8
  %341 = getelementptr inbounds nuw i8, ptr addrspace(1) %335, i64 12
  %342 = load float, ptr addrspace(1) %341, align 4
  %343 = getelementptr i8, ptr addrspace(1) %335, i64 512
  %344 = load float, ptr addrspace(1) %343, align 16
  %345 = getelementptr i8, ptr addrspace(1) %335, i64 516
  %346 = load float, ptr addrspace(1) %345, align 4
  %347 = getelementptr i8, ptr addrspace(1) %335, i64 520
  %348 = load float, ptr addrspace(1) %347, align 8
  %349 = getelementptr i8, ptr addrspace(1) %335, i64 524
  %350 = load float, ptr addrspace(1) %349, align 4
  %351 = getelementptr i8, ptr addrspace(1) %293, i64 %.idx5
  %352 = load float, ptr addrspace(1) %351, align 16
  %353 = getelementptr inbounds nuw i8, ptr addrspace(1) %351, i64 4
  %354 = load float, ptr addrspace(1) %353, align 4
  %355 = getelementptr inbounds nuw i8, ptr addrspace(1) %351, i64 8
  %356 = load float, ptr addrspace(1) %355, align 8
  %357 = getelementptr inbounds nuw i8, ptr addrspace(1) %351, i64 12
  %358 = load float, ptr addrspace(1) %357, align 4
  %359 = getelementptr i8, ptr addrspace(1) %351, i64 512
  %360 = load float, ptr addrspace(1) %359, align 16
  %361 = getelementptr i8, ptr addrspace(1) %351, i64 516
  %362 = load float, ptr addrspace(1) %361, align 4
  %363 = getelementptr i8, ptr addrspace(1) %351, i64 520
  %364 = load float, ptr addrspace(1) %363, align 8
  %365 = getelementptr i8, ptr addrspace(1) %351, i64 524
  %366 = load float, ptr addrspace(1) %365, align 4
  br label %ld.tile.done3

ld.edge2:                                         ; preds = %for.body
  %367 = icmp slt i32 %2, %290
  %368 = and i1 %24, %367
  %369 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %293, i1 %368, i32 0) #3
  %370 = bitcast i32 %369 to float
  %371 = icmp slt i32 %241, %290
  %372 = and i1 %24, %371
  %373 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %293, i1 %372, i32 0) #3
  %374 = bitcast i32 %373 to float
  %375 = icmp slt i32 %242, %290
  %376 = and i1 %24, %375
  %377 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %293, i1 %376, i32 0) #3
  %378 = bitcast i32 %377 to float
  %379 = icmp slt i32 %243, %290
  %380 = and i1 %24, %379
  %381 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %293, i1 %380, i32 0) #3
  %382 = bitcast i32 %381 to float
  %383 = icmp slt i32 %244, %290
  %384 = and i1 %24, %383
  %385 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %293, i1 %384, i32 0) #3
  %386 = bitcast i32 %385 to float
  %387 = icmp slt i32 %245, %290
  %388 = and i1 %24, %387
  %389 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %293, i1 %388, i32 0) #3
  %390 = bitcast i32 %389 to float
  %391 = icmp slt i32 %246, %290
  %392 = and i1 %24, %391
  %393 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %293, i1 %392, i32 0) #3
  %394 = bitcast i32 %393 to float
  %395 = and i1 %24, %298
  %396 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %293, i1 %395, i32 0) #3
  %397 = bitcast i32 %396 to float
  %398 = getelementptr float, ptr addrspace(1) %293, i64 %18
  %399 = and i1 %248, %367
  %400 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %398, i1 %399, i32 0) #3
  %401 = bitcast i32 %400 to float
  %402 = and i1 %248, %371
  %403 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %398, i1 %402, i32 0) #3
  %404 = bitcast i32 %403 to float
  %405 = and i1 %248, %375
  %406 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %398, i1 %405, i32 0) #3
  %407 = bitcast i32 %406 to float
  %408 = and i1 %248, %379
  %409 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %398, i1 %408, i32 0) #3
  %410 = bitcast i32 %409 to float
  %411 = and i1 %248, %383
  %412 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %398, i1 %411, i32 0) #3
  %413 = bitcast i32 %412 to float
  %414 = and i1 %248, %387
  %415 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %398, i1 %414, i32 0) #3
  %416 = bitcast i32 %415 to float
  %417 = and i1 %248, %391
  %418 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %398, i1 %417, i32 0) #3
  %419 = bitcast i32 %418 to float
  %420 = and i1 %248, %298
  %421 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %398, i1 %420, i32 0) #3
  %422 = bitcast i32 %421 to float
  %423 = getelementptr i8, ptr addrspace(1) %293, i64 %.idx4
  %424 = and i1 %250, %367
  %425 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %423, i1 %424, i32 0) #3
  %426 = bitcast i32 %425 to float
  %427 = and i1 %250, %371
  %428 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %423, i1 %427, i32 0) #3
  %429 = bitcast i32 %428 to float
  %430 = and i1 %250, %375
  %431 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %423, i1 %430, i32 0) #3
  %432 = bitcast i32 %431 to float
  %433 = and i1 %250, %379
  %434 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %423, i1 %433, i32 0) #3
  %435 = bitcast i32 %434 to float
  %436 = and i1 %250, %383
  %437 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %423, i1 %436, i32 0) #3
  %438 = bitcast i32 %437 to float
  %439 = and i1 %250, %387
  %440 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %423, i1 %439, i32 0) #3
  %441 = bitcast i32 %440 to float
  %442 = and i1 %250, %391
  %443 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %423, i1 %442, i32 0) #3
  %444 = bitcast i32 %443 to float
  %445 = and i1 %250, %298
  %446 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %423, i1 %445, i32 0) #3
  %447 = bitcast i32 %446 to float
  %448 = getelementptr i8, ptr addrspace(1) %293, i64 %.idx5
  %449 = and i1 %25, %367
  %450 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %448, i1 %449, i32 0) #3
  %451 = bitcast i32 %450 to float
  %452 = and i1 %25, %371
  %453 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %448, i1 %452, i32 0) #3
  %454 = bitcast i32 %453 to float
  %455 = and i1 %25, %375
  %456 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %448, i1 %455, i32 0) #3
  %457 = bitcast i32 %456 to float
  %458 = and i1 %25, %379
  %459 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %448, i1 %458, i32 0) #3
  %460 = bitcast i32 %459 to float
  %461 = and i1 %25, %383
  %462 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+512];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %448, i1 %461, i32 0) #3
  %463 = bitcast i32 %462 to float
  %464 = and i1 %25, %387
  %465 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+516];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %448, i1 %464, i32 0) #3
  %466 = bitcast i32 %465 to float
  %467 = and i1 %25, %391
  %468 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+520];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %448, i1 %467, i32 0) #3
  %469 = bitcast i32 %468 to float
  %470 = and i1 %25, %298
  %471 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+524];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %448, i1 %470, i32 0) #3
  %472 = bitcast i32 %471 to float
  br label %ld.tile.done3

ld.tile.done3:                                    ; preds = %ld.edge2, %ld.tile1
  %473 = phi float [ %304, %ld.tile1 ], [ %370, %ld.edge2 ]
  %474 = phi float [ %306, %ld.tile1 ], [ %374, %ld.edge2 ]
  %475 = phi float [ %308, %ld.tile1 ], [ %378, %ld.edge2 ]
  %476 = phi float [ %310, %ld.tile1 ], [ %382, %ld.edge2 ]
  %477 = phi float [ %312, %ld.tile1 ], [ %386, %ld.edge2 ]
  %478 = phi float [ %314, %ld.tile1 ], [ %390, %ld.edge2 ]
  %479 = phi float [ %316, %ld.tile1 ], [ %394, %ld.edge2 ]
  %480 = phi float [ %318, %ld.tile1 ], [ %397, %ld.edge2 ]
  %481 = phi float [ %320, %ld.tile1 ], [ %401, %ld.edge2 ]
  %482 = phi float [ %322, %ld.tile1 ], [ %404, %ld.edge2 ]
  %483 = phi float [ %324, %ld.tile1 ], [ %407, %ld.edge2 ]
  %484 = phi float [ %326, %ld.tile1 ], [ %410, %ld.edge2 ]
  %485 = phi float [ %328, %ld.tile1 ], [ %413, %ld.edge2 ]
  %486 = phi float [ %330, %ld.tile1 ], [ %416, %ld.edge2 ]
  %487 = phi float [ %332, %ld.tile1 ], [ %419, %ld.edge2 ]
  %488 = phi float [ %334, %ld.tile1 ], [ %422, %ld.edge2 ]
  %489 = phi float [ %336, %ld.tile1 ], [ %426, %ld.edge2 ]
  %490 = phi float [ %338, %ld.tile1 ], [ %429, %ld.edge2 ]
  %491 = phi float [ %340, %ld.tile1 ], [ %432, %ld.edge2 ]
  %492 = phi float [ %342, %ld.tile1 ], [ %435, %ld.edge2 ]
  %493 = phi float [ %344, %ld.tile1 ], [ %438, %ld.edge2 ]
  %494 = phi float [ %346, %ld.tile1 ], [ %441, %ld.edge2 ]
  %495 = phi float [ %348, %ld.tile1 ], [ %444, %ld.edge2 ]
  %496 = phi float [ %350, %ld.tile1 ], [ %447, %ld.edge2 ]
  %497 = phi float [ %352, %ld.tile1 ], [ %451, %ld.edge2 ]
  %498 = phi float [ %354, %ld.tile1 ], [ %454, %ld.edge2 ]
  %499 = phi float [ %356, %ld.tile1 ], [ %457, %ld.edge2 ]
  %500 = phi float [ %358, %ld.tile1 ], [ %460, %ld.edge2 ]
  %501 = phi float [ %360, %ld.tile1 ], [ %463, %ld.edge2 ]
  %502 = phi float [ %362, %ld.tile1 ], [ %466, %ld.edge2 ]
  %503 = phi float [ %364, %ld.tile1 ], [ %469, %ld.edge2 ]
  %504 = phi float [ %366, %ld.tile1 ], [ %472, %ld.edge2 ]
  %505 = fadd contract float %282, %281
  %506 = fadd contract float %505, %280
  %507 = fadd contract float %506, %279
  %508 = fadd contract float %507, %278
  %509 = fadd contract float %508, %277
  %510 = fadd contract float %509, %276
  %511 = fadd contract float %510, %275
  %512 = fadd contract float %274, %273
  %513 = fadd contract float %512, %272
  %514 = fadd contract float %513, %271
  %515 = fadd contract float %514, %270
  %516 = fadd contract float %515, %269
  %517 = fadd contract float %516, %268
  %518 = fadd contract float %517, %267
  %519 = fadd contract float %266, %265
  %520 = fadd contract float %519, %264
  %521 = fadd contract float %520, %263
  %522 = fadd contract float %521, %262
  %523 = fadd contract float %522, %261
  %524 = fadd contract float %523, %260
  %525 = fadd contract float %524, %259
  %526 = fadd contract float %258, %257
  %527 = fadd contract float %526, %256
  %528 = fadd contract float %527, %255
  %529 = fadd contract float %528, %254
  %530 = fadd contract float %529, %253
  %531 = fadd contract float %530, %252
  %532 = fadd contract float %531, %251
  %533 = bitcast float %511 to i32
  %534 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %533, i32 1, i32 31)
  %535 = bitcast i32 %534 to float
  %536 = fadd contract float %511, %535
  %537 = bitcast float %518 to i32
  %538 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %537, i32 1, i32 31)
  %539 = bitcast i32 %538 to float
  %540 = fadd contract float %518, %539
  %541 = bitcast float %525 to i32
  %542 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %541, i32 1, i32 31)
  %543 = bitcast i32 %542 to float
  %544 = fadd contract float %525, %543
  %545 = bitcast float %532 to i32
  %546 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %545, i32 1, i32 31)
  %547 = bitcast i32 %546 to float
  %548 = fadd contract float %532, %547
  %549 = bitcast float %536 to i32
  %550 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %549, i32 2, i32 31)
  %551 = bitcast i32 %550 to float
  %552 = fadd contract float %536, %551
  %553 = bitcast float %540 to i32
  %554 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %553, i32 2, i32 31)
  %555 = bitcast i32 %554 to float
  %556 = fadd contract float %540, %555
  %557 = bitcast float %544 to i32
  %558 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %557, i32 2, i32 31)
  %559 = bitcast i32 %558 to float
  %560 = fadd contract float %544, %559
  %561 = bitcast float %548 to i32
  %562 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %561, i32 2, i32 31)
  %563 = bitcast i32 %562 to float
  %564 = fadd contract float %548, %563
  %565 = bitcast float %552 to i32
  %566 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %565, i32 4, i32 31)
  %567 = bitcast i32 %566 to float
  %568 = fadd contract float %552, %567
  %569 = bitcast float %556 to i32
  %570 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %569, i32 4, i32 31)
  %571 = bitcast i32 %570 to float
  %572 = fadd contract float %556, %571
  %573 = bitcast float %560 to i32
  %574 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %573, i32 4, i32 31)
  %575 = bitcast i32 %574 to float
  %576 = fadd contract float %560, %575
  %577 = bitcast float %564 to i32
  %578 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %577, i32 4, i32 31)
  %579 = bitcast i32 %578 to float
  %580 = fadd contract float %564, %579
  %581 = bitcast float %568 to i32
  %582 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %581, i32 8, i32 31)
  %583 = bitcast i32 %582 to float
  %584 = fadd contract float %568, %583
  %585 = bitcast float %572 to i32
  %586 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %585, i32 8, i32 31)
  %587 = bitcast i32 %586 to float
  %588 = fadd contract float %572, %587
  %589 = bitcast float %576 to i32
  %590 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %589, i32 8, i32 31)
  %591 = bitcast i32 %590 to float
  %592 = fadd contract float %576, %591
  %593 = bitcast float %580 to i32
  %594 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %593, i32 8, i32 31)
  %595 = bitcast i32 %594 to float
  %596 = fadd contract float %580, %595
  %597 = bitcast float %584 to i32
  %598 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %597, i32 16, i32 31)
  %599 = bitcast i32 %598 to float
  %600 = fadd contract float %584, %599
  %601 = bitcast float %588 to i32
  %602 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %601, i32 16, i32 31)
  %603 = bitcast i32 %602 to float
  %604 = fadd contract float %588, %603
  %605 = bitcast float %592 to i32
  %606 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %605, i32 16, i32 31)
  %607 = bitcast i32 %606 to float
  %608 = fadd contract float %592, %607
  %609 = bitcast float %596 to i32
  %610 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %609, i32 16, i32 31)
  %611 = bitcast i32 %610 to float
  %612 = fadd contract float %596, %611
  %613 = fadd contract float %286, %600
  %614 = fadd contract float %285, %604
  %615 = fadd contract float %284, %608
  %616 = fadd contract float %283, %612
  %exitcond.not = icmp eq i32 %287, %10
  br i1 %exitcond.not, label %for.exit, label %for.body

st.in:                                            ; preds = %for.exit
  store float %.lcssa10, ptr addrspace(1) %302, align 4
  br label %st.end

st.end:                                           ; preds = %st.in, %for.exit
  %617 = or disjoint i32 %warp, 4
  %618 = icmp slt i32 %617, %8
  %619 = and i1 %3, %618
  br i1 %619, label %st.in4, label %st.end5

st.in4:                                           ; preds = %st.end
  %620 = getelementptr i8, ptr addrspace(1) %302, i64 16
  store float %.lcssa9, ptr addrspace(1) %620, align 4
  br label %st.end5

st.end5:                                          ; preds = %st.in4, %st.end
  %621 = or disjoint i32 %warp, 8
  %622 = icmp slt i32 %621, %8
  %623 = and i1 %3, %622
  br i1 %623, label %st.in6, label %st.end7

st.in6:                                           ; preds = %st.end5
  %624 = getelementptr i8, ptr addrspace(1) %302, i64 32
  store float %.lcssa8, ptr addrspace(1) %624, align 4
  br label %st.end7

st.end7:                                          ; preds = %st.in6, %st.end5
  %625 = and i1 %3, %25
  br i1 %625, label %st.in8, label %st.end9

st.in8:                                           ; preds = %st.end7
  %626 = getelementptr i8, ptr addrspace(1) %302, i64 48
  store float %.lcssa, ptr addrspace(1) %626, align 4
  br label %st.end9

st.end9:                                          ; preds = %st.in8, %st.end7
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #2

attributes #0 = { nounwind "nvvm.maxntid"="128,1,1" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #3 = { nounwind }
